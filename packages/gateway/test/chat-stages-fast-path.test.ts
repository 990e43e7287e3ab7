// The chat stages (intake/chat-intake.ts) in the default configuration await nothing before the message
// is handed on: no pre_gateway_dispatch payload without a callback, no store read for an allowlisted
// sender, channel settings at once without skills to preload. Each slower path still runs when needed.
import { HookBus } from '@hermes/plugins';
import type { MessageEvent } from '@hermes/protocol';
import { describe, expect, it, vi } from 'vitest';
import { channelSettings } from '../src/intake/channel-settings.js';
import { type ChatIntakePorts, runChatStages } from '../src/intake/chat-intake.js';
import type { GatewayMetrics } from '../src/metrics/gateway-metrics.js';
import { PendingIngests } from '../src/pipeline/dispatch-handles.js';
import type { LaneJob, StageInput } from '../src/pipeline/input.js';

const event = (userId = '7'): MessageEvent => ({
  kind: 'text',
  platform: 'telegram',
  messageId: '42:1',
  text: 'hi',
  source: { platform: 'telegram', chatId: '42', chatType: 'dm', userId },
  internal: false,
  receivedAt: 0,
  raw: null,
});
const input = (userId?: string): StageInput => ({
  inboxId: 1,
  event: event(userId),
  sessionKey: 'telegram:42:dm',
  acceptedAt: 5,
});

function ports(over: Partial<ChatIntakePorts> = {}) {
  const jobs: LaneJob[] = [];
  const hooks = new HookBus();
  const isApproved = vi.fn(async () => true);
  const p: ChatIntakePorts = {
    dispatch: {
      hooks,
      handles: () => ({ gateway: {} as never, sessionStore: {} as never }),
    },
    ingests: new PendingIngests(),
    authorize: {
      env: { TELEGRAM_ALLOWED_USERS: '7' },
      pairing: { isApproved, request: vi.fn() },
    },
    freeResponseChats: [],
    metrics: { platform: () => ({ ignored: () => {} }) } as unknown as GatewayMetrics,
    commit: vi.fn(async () => []) as unknown as ChatIntakePorts['commit'],
    remember: () => {},
    pairingReply: vi.fn(),
    command: vi.fn(),
    batch: (job) => jobs.push(job),
    channel: channelSettings({}, undefined, { warn: () => {} }),
    ...over,
  };
  return { p, jobs, hooks, isApproved };
}

describe('chat stages: the default configuration', () => {
  it('hands an allowlisted message on before anything is awaited, the job holding the input and its text', async () => {
    const { p, jobs, hooks, isApproved } = ports();
    const invoke = vi.spyOn(hooks, 'invoke');
    const outcome = runChatStages(p, input());
    // synchronously: no hook payload, no store read, no channel settings awaited
    expect(jobs).toEqual([{ ...input(), text: 'hi' }]);
    expect(Object.keys(jobs[0] ?? {}).sort()).toEqual(['acceptedAt', 'event', 'inboxId', 'sessionKey', 'text']);
    expect(await outcome).toEqual({ kind: 'handed_on' });
    expect(invoke).not.toHaveBeenCalled();
    expect(isApproved).not.toHaveBeenCalled();
  });

  it('still runs a pre_gateway_dispatch callback (a rewrite) and reads the pairing of a user not on the allowlist', async () => {
    const { p, jobs, hooks, isApproved } = ports();
    hooks.register('pre_gateway_dispatch', () => ({ action: 'rewrite' as const, text: 'rewritten' }), {
      source: 'test',
      name: 't',
    });
    expect(await runChatStages(p, input('8'))).toEqual({ kind: 'handed_on' });
    expect(isApproved).toHaveBeenCalledWith('telegram', '8');
    expect(jobs.map((j) => [j.text, j.event.text])).toEqual([['rewritten', 'rewritten']]);
  });

  it('waits for an ingest a hook started even when no callback is left', async () => {
    const { p, jobs } = ports();
    const ingests = new PendingIngests();
    expect(ingests.settled()).toBeUndefined();
    let finish = () => {};
    ingests.add(new Promise<void>((resolve) => (finish = resolve)));
    const outcome = runChatStages({ ...p, ingests }, input());
    await Promise.resolve();
    expect(jobs).toEqual([]);
    finish();
    await outcome;
    expect(jobs).toHaveLength(1);
  });

  it('parses the command once: a command skips the clarify answer and runs; a plain text may answer a question', async () => {
    const clarifyReply = vi.fn(() => true);
    const command = vi.fn(async () => ({ kind: 'answered' as const }));
    const { p, jobs } = ports({ clarifyReply, command });
    const slash = { ...input(), event: { ...event(), text: '/new@hermes_bot  now ' } };
    expect(await runChatStages(p, slash)).toEqual({ kind: 'answered' });
    expect(clarifyReply).not.toHaveBeenCalled();
    expect(command).toHaveBeenCalledWith(slash, { name: 'new', args: 'now' });
    expect(await runChatStages(p, input())).toEqual({ kind: 'answered' });
    expect(clarifyReply).toHaveBeenCalledTimes(1);
    expect(jobs).toEqual([]);
  });

  it('channel settings: at once without skills, awaited with skills to preload', async () => {
    const e = event();
    const warn = vi.fn();
    expect(channelSettings({}, undefined, { warn })(e)).toEqual({});
    expect(channelSettings({ channelPrompts: { 'telegram:42': 'be brief' } }, undefined, { warn })(e)).toEqual({
      instructions: 'be brief',
    });
    const skills = { preload: vi.fn(async () => ({ text: 'SKILL', missing: ['gone'] })) };
    const settings = channelSettings(
      {
        channelPrompts: { 'telegram:42': 'be brief' },
        channelSkills: { 'telegram:42': ['s', 'gone'] },
        channelToolsets: { 'telegram:42': ['web'] },
      },
      skills as never,
      { warn },
    )(e);
    expect(settings).toBeInstanceOf(Promise);
    expect(await settings).toEqual({ instructions: 'be brief\n\nSKILL', toolsets: ['web'] });
    expect(warn).toHaveBeenCalledTimes(1);
    const { p, jobs } = ports({
      channel: channelSettings({ channelSkills: { 'telegram:42': ['s'] } }, skills as never, { warn }),
    });
    await runChatStages(p, input());
    expect(jobs[0]?.instructions).toBe('SKILL');
  });
});

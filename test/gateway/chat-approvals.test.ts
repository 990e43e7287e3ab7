// Approvals asked in a chat, in-process: a platform without buttons is asked in text and answered
// with /approve or /deny; the approval hooks fire with surface "gateway"; "this session" is
// remembered for the session; another (non-admin) user's /approve is "not yours"; a timeout denies.
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTerminalTool } from '@hermes/agent';
import { defaultConfig } from '@hermes/config';
import type { ApprovalChoice, HookPayloads } from '@hermes/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { accessSettings } from '../../packages/gateway/src/access/access-settings.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { waitFor } from '../helpers/wait-for.js';
import { type Harness, startHarness } from './harness.js';

const openai = useFakeOpenAI();
let h: Harness | null = null;
afterEach(async () => {
  await h?.stop();
  h = null;
});

function victim(): { target: string; command: string } {
  const target = join(mkdtempSync(join(tmpdir(), 'hermes-approve-')), 'victim');
  mkdirSync(target);
  writeFileSync(join(target, 'keep.txt'), 'x');
  return { target, command: `rm -rf ${target}/*` };
}

async function harness(settings: { approvalTimeoutMs?: number; groupSessions?: 'shared' } = {}): Promise<Harness> {
  // the access tiers as gateway run has them: u1 (first allowed, no admin named) is the owner, u2 a user
  const access = accessSettings(defaultConfig());
  const started = await startHarness(openai.server, {
    settings: { ...settings, access },
    env: { MEMORY_ALLOWED_USERS: 'u1,u2' },
  });
  started.tools.register(createTerminalTool({ cwd: process.cwd() }));
  return started;
}

const texts = () => h?.platform.sent.map((m) => m.text) ?? [];

describe('approvals in a chat', () => {
  it('asked in text where there are no buttons; /approve session runs it and is remembered; hooks fire', async () => {
    h = await harness();
    const seen: { hook: string; surface: string; choice?: ApprovalChoice }[] = [];
    const owner = { source: 'test', name: 'audit' } as const;
    h.hooks.register(
      'pre_approval_request',
      (p: HookPayloads['pre_approval_request']) => {
        seen.push({ hook: 'pre', surface: p.surface });
      },
      owner,
    );
    h.hooks.register(
      'post_approval_response',
      (p: HookPayloads['post_approval_response']) => {
        seen.push({ hook: 'post', surface: p.surface, choice: p.choice });
      },
      owner,
    );
    const { target, command } = victim();
    openai.server.script(
      { toolCalls: [{ name: 'terminal', arguments: { command } }] },
      { text: 'first done' },
      { toolCalls: [{ name: 'terminal', arguments: { command } }] },
      { text: 'second done, unasked' },
    );
    await h.platform.inject('clean up');
    await waitFor(() => texts().some((t) => t.startsWith('Approval needed')));
    expect(texts()[0]).toContain('/approve');
    expect(existsSync(join(target, 'keep.txt'))).toBe(true);
    await h.platform.inject('/approve session');
    await waitFor(() => texts().includes('first done'));
    expect(texts()).toContain('Approved for this session.');
    expect(existsSync(join(target, 'keep.txt'))).toBe(false);
    expect(seen).toEqual([
      { hook: 'pre', surface: 'gateway' },
      { hook: 'post', surface: 'gateway', choice: 'session' },
    ]);
    // the same pattern later in the session runs without asking again
    writeFileSync(join(target, 'again.txt'), 'x');
    await h.platform.inject('and again');
    await waitFor(() => texts().includes('second done, unasked'));
    expect(texts().filter((t) => t.startsWith('Approval needed'))).toHaveLength(1);
    expect(existsSync(join(target, 'again.txt'))).toBe(false);
  });

  it("another user's /approve in a shared group session is not theirs to give; nothing waits: said so", async () => {
    h = await harness({ groupSessions: 'shared', approvalTimeoutMs: 60_000 });
    const { target, command } = victim();
    openai.server.script({ toolCalls: [{ name: 'terminal', arguments: { command } }] }, { text: 'denied then' });
    const group = { chatId: 'g1', chatType: 'group' as const, mentioned: true };
    await h.platform.inject('/approve');
    await waitFor(() => texts().includes('Nothing is waiting for approval here.'));
    await h.platform.inject('clean up', group);
    await waitFor(() => texts().some((t) => t.startsWith('Approval needed')));
    await h.platform.inject('/approve', { ...group, userId: 'u2', userName: 'Mallory' });
    await waitFor(() => texts().some((t) => t.startsWith('Not yours')));
    expect(existsSync(join(target, 'keep.txt'))).toBe(true);
    await h.platform.inject('/approve nonsense', group);
    await waitFor(() => texts().some((t) => t.startsWith('Usage: /approve')));
    await h.platform.inject('/deny', group);
    await waitFor(() => texts().includes('denied then'));
    expect(existsSync(join(target, 'keep.txt'))).toBe(true);
  });

  it('no answer within approvals.timeout_s denies, and the chat goes on', async () => {
    h = await harness({ approvalTimeoutMs: 300 });
    const { target, command } = victim();
    openai.server.script(
      { toolCalls: [{ name: 'terminal', arguments: { command } }] },
      { text: 'timed out' },
      { text: 'still here' },
    );
    await h.platform.inject('clean up');
    await waitFor(() => texts().includes('timed out'));
    expect(texts()).toContain('No answer in time: denied.');
    expect(existsSync(join(target, 'keep.txt'))).toBe(true);
    await h.platform.inject('hello?');
    await waitFor(() => texts().includes('still here'));
    expect(h.gateway.approvals.waiting).toBe(0);
  });
});

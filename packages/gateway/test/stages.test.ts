import { HookBus } from '@hermes/plugins';
import { gatewayEventExample, type MessageEvent, type SessionSource, sessionKeyFor } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../../../test/helpers/wait-for.js';
import { parseCommand } from '../src/commands/commands.js';
import { eventMatches, GatewayEvents } from '../src/gateway-hooks/gateway-events.js';
import { allowedByEnv } from '../src/pipeline/allowlist.js';
import { isAddressed } from '../src/pipeline/group-policy.js';
import { needsReset } from '../src/sessions/reset-policy.js';
import { SessionLanes } from '../src/sessions/session-lanes.js';

const src = (over: Partial<SessionSource> = {}): SessionSource => ({
  platform: 'telegram',
  chatId: '42',
  chatType: 'dm',
  userId: '7',
  ...over,
});
const event = (over: Partial<SessionSource> = {}): MessageEvent => ({
  kind: 'text',
  platform: 'telegram',
  messageId: '42:1',
  text: 'hi',
  source: src(over),
  internal: false,
  receivedAt: 0,
  raw: null,
});

describe('session keys', () => {
  it('a DM per chat, a group per user by default or shared, a thread shared', () => {
    expect(sessionKeyFor(src())).toBe('telegram:42:dm');
    expect(sessionKeyFor(src({ chatType: 'group', userId: '1' }))).toBe('telegram:42:group:1');
    expect(sessionKeyFor(src({ chatType: 'group', userId: '2' }))).toBe('telegram:42:group:2');
    expect(sessionKeyFor(src({ chatType: 'group' }), 'shared')).toBe('telegram:42:group');
    expect(sessionKeyFor(src({ chatType: 'thread', threadId: '9', userId: '1' }))).toBe(
      sessionKeyFor(src({ chatType: 'thread', threadId: '9', userId: '2' })),
    );
  });
});

describe('authorization by env', () => {
  it('honours <PLATFORM>_ALLOWED_USERS, GATEWAY_ALLOWED_USERS, * and GATEWAY_ALLOW_ALL_USERS', () => {
    expect(allowedByEnv('telegram', '7', {})).toBe(false);
    expect(allowedByEnv('telegram', '7', { TELEGRAM_ALLOWED_USERS: '1, 7' })).toBe(true);
    expect(allowedByEnv('telegram', '8', { TELEGRAM_ALLOWED_USERS: '1,7' })).toBe(false);
    expect(allowedByEnv('telegram', '8', { TELEGRAM_ALLOWED_USERS: '*' })).toBe(true);
    expect(allowedByEnv('discord', '7', { TELEGRAM_ALLOWED_USERS: '7' })).toBe(false);
    expect(allowedByEnv('discord', '7', { GATEWAY_ALLOWED_USERS: '7' })).toBe(true);
    expect(allowedByEnv('slack', 'U1', { GATEWAY_ALLOW_ALL_USERS: 'true' })).toBe(true);
  });
});

describe('group policy', () => {
  it('answers DMs always; groups only when mentioned, replied to, or free-response', () => {
    expect(isAddressed(event(), [])).toBe(true);
    expect(isAddressed(event({ chatType: 'group' }), [])).toBe(false);
    expect(isAddressed(event({ chatType: 'group', mentioned: true }), [])).toBe(true);
    expect(isAddressed(event({ chatType: 'group', repliedToBot: true }), [])).toBe(true);
    expect(isAddressed(event({ chatType: 'group' }), ['telegram:42'])).toBe(true);
  });
});

describe('reset policy', () => {
  const at = (h: number, m = 0) => new Date(2026, 0, 2, h, m).getTime();
  it('none never resets; idle after N minutes; daily after the hour boundary', () => {
    const policy = { mode: 'none' as const, idle_minutes: 60, at_hour: 4 };
    expect(needsReset(at(1), policy, at(23))).toBe(false);
    expect(needsReset(at(10), { ...policy, mode: 'idle' }, at(10, 59))).toBe(false);
    expect(needsReset(at(10), { ...policy, mode: 'idle' }, at(11, 1))).toBe(true);
    expect(needsReset(at(3), { ...policy, mode: 'daily' }, at(5))).toBe(true);
    expect(needsReset(at(5), { ...policy, mode: 'daily' }, at(23))).toBe(false);
    expect(needsReset(at(5), { ...policy, mode: 'both', idle_minutes: 10 }, at(6))).toBe(true);
  });
});

describe('commands', () => {
  it('parses /name args and strips @bot', () => {
    expect(parseCommand('/new')).toEqual({ name: 'new', args: '' });
    expect(parseCommand('/queue@hermes_bot  later please ')).toEqual({ name: 'queue', args: 'later please' });
    expect(parseCommand('hello /new')).toBeNull();
  });
});

describe('gateway events', () => {
  it('matches exact names and prefix wildcards; a throwing handler is isolated', async () => {
    expect(eventMatches('command:*', 'command:new')).toBe(true);
    expect(eventMatches('agent:*', 'command:new')).toBe(false);
    const warnings: string[] = [];
    const log = (_o: unknown, msg?: string) => warnings.push(msg ?? '');
    const logger = { trace: log, debug: log, info: log, warn: log, error: log, fatal: log, child: () => logger };
    const events = new GatewayEvents(new HookBus({ logger }));
    const seen: string[] = [];
    events.on('command:*', (type) => void seen.push(type));
    events.on(
      'command:*',
      () => {
        throw new Error('bad hook');
      },
      'bad',
    );
    events.emit('command:new', gatewayEventExample('command:new'));
    events.emit('agent:start', gatewayEventExample('agent:start'));
    await waitFor(() => warnings.some((w) => w.includes('bad')), { what: "the bad hook's warning" });
    expect(seen).toEqual(['command:new']);
    expect(warnings.some((w) => w.includes('bad') && w.includes('command:new'))).toBe(true);
  });
});

describe('session lanes', () => {
  type Job = { text: string };
  function lanes(maxConcurrent = 4) {
    const log: string[] = [];
    const gates = new Map<string, () => void>();
    const l = new SessionLanes<Job>({
      maxConcurrent,
      withText: (_j, text) => ({ text }),
      textOf: (j) => j.text,
      runner: async (job, control) => {
        log.push(`start ${job.text}`);
        await new Promise<void>((resolve) => {
          gates.set(job.text, resolve);
          control.signal.addEventListener('abort', () => resolve());
        });
        log.push(
          `${control.signal.aborted ? 'aborted' : 'end'} ${job.text}${(() => {
            const s = control.takeSteering();
            return s.length ? ` steered:${s.join('|')}` : '';
          })()}`,
        );
      },
    });
    return { l, log, release: (t: string) => gates.get(t)?.() };
  }
  const logged = (log: string[], line: string) => waitFor(() => log.includes(line), { what: line });

  it('queue: the second message runs after the first', async () => {
    const { l, log, release } = lanes();
    expect(l.submit('s', { text: 'a' }, 'queue')).toBe('started');
    await logged(log, 'start a');
    expect(l.submit('s', { text: 'b' }, 'queue')).toBe('queued');
    release('a');
    await logged(log, 'start b');
    release('b');
    await l.idle();
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b']);
  });

  it('interrupt: the running turn is aborted and the new message answered', async () => {
    const { l, log, release } = lanes();
    l.submit('s', { text: 'a' }, 'interrupt');
    await logged(log, 'start a');
    expect(l.submit('s', { text: 'b' }, 'interrupt')).toBe('interrupting');
    await logged(log, 'start b');
    release('b');
    await l.idle();
    expect(log).toEqual(['start a', 'aborted a', 'start b', 'end b']);
  });

  it('interrupt after settle: a turn that already has its answer is not aborted; the new message queues', async () => {
    const log: string[] = [];
    const none = () => {};
    let deliver: () => void = none;
    const l = new SessionLanes<Job>({
      maxConcurrent: 4,
      withText: (_j, text) => ({ text }),
      textOf: (j) => j.text,
      runner: async (job, control) => {
        control.settle(); // the answer exists; only delivery is left
        await new Promise<void>((resolve) => {
          deliver = resolve;
        });
        log.push(`${control.signal.aborted ? 'aborted' : 'delivered'} ${job.text}`);
      },
    });
    l.submit('s', { text: 'a' }, 'interrupt');
    await waitFor(() => deliver !== none, { what: 'a at its delivery' });
    expect(l.submit('s', { text: 'b' }, 'interrupt')).toBe('queued');
    const deliverA = deliver;
    deliverA();
    await waitFor(() => deliver !== deliverA, { what: 'b at its delivery' });
    deliver();
    await l.idle();
    expect(log).toEqual(['delivered a', 'delivered b']);
  });

  it('steer: the message reaches the running turn', async () => {
    const { l, log, release } = lanes();
    l.submit('s', { text: 'a' }, 'steer');
    await logged(log, 'start a');
    expect(l.submit('s', { text: 'faster' }, 'steer')).toBe('steered');
    release('a');
    await l.idle();
    expect(log).toEqual(['start a', 'end a steered:faster']);
  });

  it('/stop cancels; sessions run in parallel up to the limit', async () => {
    const { l, log, release } = lanes(2);
    l.submit('s1', { text: 'a' }, 'queue');
    l.submit('s2', { text: 'b' }, 'queue');
    l.submit('s3', { text: 'c' }, 'queue');
    await logged(log, 'start b');
    expect(log).toEqual(['start a', 'start b']);
    expect(l.stop('s1')).toBe(true);
    expect(l.stop('nobody')).toBe(false);
    await logged(log, 'start c');
    expect(log).toContain('aborted a');
    expect(log).toContain('start c');
    release('b');
    release('c');
    await l.idle();
  });
});

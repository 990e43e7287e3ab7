// A gateway hook in its worker thread: message passing for send/runAgent/logger, and whatever the
// handler does (throw from a timer, process.exit, a busy loop) ends in a log line naming the hook
// and a restarted worker, never in the test process.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GatewayHookApi, Logger } from '@hermes/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { type GatewayHookSpec, HookThread } from '../src/index.js';

function recordingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const log = (a: unknown, b?: unknown) => lines.push(typeof a === 'string' ? a : String(b));
  const logger = { trace: log, debug: log, info: log, warn: log, error: log, fatal: log } as unknown as Logger;
  (logger as { child: () => Logger }).child = () => logger;
  return { logger, lines };
}

function spec(name: string, handler: string): GatewayHookSpec {
  const dir = mkdtempSync(join(tmpdir(), 'hermes-hthread-'));
  mkdirSync(join(dir, name));
  writeFileSync(join(dir, name, 'handler.ts'), handler);
  return {
    name,
    description: name,
    events: ['agent:end'],
    dir: join(dir, name),
    handlerFile: join(dir, name, 'handler.ts'),
    warnings: [],
  };
}

async function until(what: string, check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const threads: HookThread[] = [];
afterEach(async () => {
  await Promise.all(threads.splice(0).map((t) => t.stop()));
});

function thread(s: GatewayHookSpec, extra: { timeoutMs?: number; graceMs?: number } = {}) {
  const { logger, lines } = recordingLogger();
  const sent: string[] = [];
  const api: GatewayHookApi = {
    name: s.name,
    home: '/home',
    logger,
    send: async (target, text) => {
      sent.push(`${target}:${text}`);
      return { ok: true };
    },
    runAgent: async (prompt) => ({ status: 'completed', text: `answer to ${prompt}` }),
  };
  const t = new HookThread(s, { api, logger, aliases: {}, timeoutMs: 30_000, backoffMs: 50, ...extra });
  t.start();
  threads.push(t);
  return { t, lines, sent };
}

describe('HookThread', () => {
  it('runs the handler in a worker with send, runAgent and the logger passed by message', async () => {
    const { t, lines, sent } = thread(
      spec(
        'talker',
        `import { isMainThread } from 'node:worker_threads';
        export async function handle(event, context, hermes) {
          const answer = await hermes.runAgent('hi');
          hermes.logger.info('main thread? ' + isMainThread + ', ' + answer.text + ', ' + hermes.name);
          await hermes.send('home', event + ' ' + context.n);
        }`,
      ),
    );
    await t.run('agent:end', { n: 7 });
    expect(sent).toEqual(['home:agent:end 7']);
    expect(lines).toContain('main thread? false, answer to hi, talker');
  });

  it('an error thrown by the handler rejects its run with the message', async () => {
    const { t } = thread(spec('thrower', `export function handle() { throw new Error('hook boom'); }`));
    await expect(t.run('agent:end', {})).rejects.toThrow('hook boom');
  });

  it('a throw from a timer or process.exit ends only the worker: logged by name, restarted, next runs work', async () => {
    const { t, lines } = thread(
      spec(
        'crasher',
        `let runs = 0;
        export function handle(event, context) {
          runs += 1;
          if (context.how === 'timer') setTimeout(() => { throw new Error('from a timer'); }, 1);
          if (context.how === 'exit') process.exit(3);
          return runs;
        }`,
      ),
    );
    await t.run('agent:end', { how: 'timer' });
    await until('the crash logged', () => lines.some((l) => l.includes('restarting')));
    expect(lines).toContain('gateway hook crasher crashed: from a timer');
    await expect(t.run('agent:end', { how: 'exit' })).rejects.toThrow('exited with code 3');
    expect(lines).toContain('gateway hook crasher worker thread exited with code 3; restarting in 100 ms');
    await t.run('agent:end', { how: 'nothing' });
  });

  it('a busy loop past the timeout is terminated after the grace period and the worker restarted', async () => {
    const { t, lines } = thread(
      spec('spinner', `export function handle(e, context) { if (context.spin) { for (;;) {} } }`),
      { timeoutMs: 200, graceMs: 200 },
    );
    await t.run('agent:end', {}); // loaded and answering
    await expect(t.run('agent:end', { spin: true })).rejects.toThrow('was terminated');
    expect(lines.some((l) => l.startsWith('gateway hook spinner blocks its worker thread'))).toBe(true);
    await t.run('agent:end', {});
  });

  it('an async handler that waits (not busy) is not terminated', async () => {
    const { t, lines } = thread(
      spec('waiter', `export async function handle() { await new Promise((r) => setTimeout(r, 600)); }`),
      { timeoutMs: 100, graceMs: 100 },
    );
    await t.run('agent:end', {});
    expect(lines.filter((l) => l.includes('terminated'))).toEqual([]);
  });

  it('a handler that fails to load is skipped once, never restarted', async () => {
    const { t, lines } = thread(spec('broken', 'export const x = 1;'));
    await t.run('agent:end', {}).catch(() => {});
    await until('the skip logged', () => lines.some((l) => l.includes('skipped')));
    expect(lines.filter((l) => l.includes('gateway hook broken skipped'))).toEqual([
      expect.stringContaining('exports no handle'),
    ]);
    await t.run('agent:end', {}); // resolves at once: the hook is off
    expect(lines.some((l) => l.includes('restarting'))).toBe(false);
  });
});

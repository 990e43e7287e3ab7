// The gateway hooks' worker thread: message passing for send/runAgent/logger, and whatever a
// handler does (throw from a timer, process.exit, a busy loop) ends in a log line naming the hook
// and a restarted worker, never in the test process.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GatewayHookApi, Logger } from '@hermes/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../../test/helpers/wait-for.js';
import type { GatewayHookSpec } from '../src/gateway-hooks/discover.js';
import { FaultCounter } from '../src/gateway-hooks/hook-faults.js';
import { GatewayHookWorker, pingGrace } from '../src/gateway-hooks/hook-worker-host.js';

function recordingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const log = (a: unknown, b?: unknown) => lines.push(typeof a === 'string' ? a : String(b));
  const logger: Logger = { trace: log, debug: log, info: log, warn: log, error: log, fatal: log, child: () => logger };
  return { logger, lines };
}

function specs(hooks: Record<string, string>): GatewayHookSpec[] {
  const root = mkdtempSync(join(tmpdir(), 'hermes-hworker-'));
  return Object.entries(hooks).map(([name, handler]) => {
    mkdirSync(join(root, name));
    writeFileSync(join(root, name, 'handler.ts'), handler);
    const dir = join(root, name);
    return { name, description: name, events: ['agent:end'], dir, handlerFile: join(dir, 'handler.ts'), warnings: [] };
  });
}

const workers: GatewayHookWorker[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
});

function start(hooks: Record<string, string>, extra: { timeoutMs?: number; graceMs?: number } = {}, eager = true) {
  const { logger, lines } = recordingLogger();
  const sent: string[] = [];
  const apiFor = (name: string): GatewayHookApi => ({
    name,
    home: '/home',
    logger,
    send: async (target, text) => {
      sent.push(`${name} ${target}:${text}`);
      return { ok: true };
    },
    runAgent: async (prompt) => ({ status: 'completed', text: `answer to ${prompt}` }),
    trustedFile: async () => ({ state: 'missing' }),
  });
  const w = new GatewayHookWorker(specs(hooks), {
    apiFor,
    home: '/home',
    logger,
    aliases: {},
    timeoutMs: 30_000,
    backoffMs: 50,
    faults: { limit: 3, windowMs: 60_000 },
    ...extra,
  });
  if (eager) w.start();
  workers.push(w);
  return { w, lines, sent };
}

describe('GatewayHookWorker', () => {
  it('starts its thread with the first run, not before (an idle gateway holds no second isolate)', async () => {
    const { w, lines } = start(
      {
        counter: `let n = 0; export function handle(event, context, hermes) { n += 1; hermes.logger.info('run ' + n); }`,
      },
      {},
      false,
    );
    expect(w.running).toBe(false);
    await w.run('counter', 'agent:end', {});
    expect(w.running).toBe(true);
    await w.run('counter', 'agent:end', {});
    // one thread for both runs: the module's state is kept
    expect(lines).toEqual(['run 1', 'run 2']);
  });

  it('runs handlers off the main thread with send, runAgent and the logger passed by message', async () => {
    const { w, lines, sent } = start({
      talker: `import { isMainThread } from 'node:worker_threads';
        export async function handle(event, context, hermes) {
          const answer = await hermes.runAgent('hi');
          hermes.logger.info('main thread? ' + isMainThread + ', ' + answer.text + ', ' + hermes.name);
          await hermes.send('home', event + ' ' + context.n);
        }`,
      thrower: `export function handle() { throw new Error('hook boom'); }`,
    });
    await w.run('talker', 'agent:end', { n: 7 });
    expect(sent).toEqual(['talker home:agent:end 7']);
    expect(lines).toContain('main thread? false, answer to hi, talker');
    await expect(w.run('thrower', 'agent:end', {})).rejects.toThrow('hook boom');
  });

  it('a throw from a timer or process.exit ends only the worker: logged with the hook, restarted, runs go on', async () => {
    const { w, lines } = start({
      crasher: `export function handle(event, context) {
          if (context.how === 'timer') setTimeout(() => { throw new Error('from a timer'); }, 1);
          if (context.how === 'exit') process.exit(3);
          if (context.how === 'later') setTimeout(() => process.exit(4), 5);
        }`,
      quiet: `let runs = 0; export function handle() { runs += 1; }`,
    });
    await w.run('crasher', 'agent:end', { how: 'timer' });
    await waitFor(() => lines.some((l) => l.includes('restarting')), { what: 'the restart' });
    expect(lines).toContain('gateway hook crasher crashed: from a timer');
    await expect(w.run('crasher', 'agent:end', { how: 'exit' })).rejects.toThrow('exited with code 3');
    expect(lines).toContain('gateway hook crasher worker thread exited with code 3; restarting in 100 ms');
    // from a timer, with no run in flight: traced by where process.exit was called
    await w.run('crasher', 'agent:end', { how: 'later' });
    await waitFor(() => lines.some((l) => l.includes('code 4')), { what: 'the exit logged' });
    expect(lines).toContain('gateway hook crasher worker thread exited with code 4; restarting in 200 ms');
    await w.run('quiet', 'agent:end', {});
  });

  it("a run posted between a crash and the worker's exit waits for the next worker instead of dying with it", async () => {
    const { w, lines, sent } = start({
      crasher: `export function handle() { setTimeout(() => { throw new Error('from a timer'); }, 1); }`,
      greeter: `export async function handle(event, context, hermes) { await hermes.send('home', 'hello ' + context.n); }`,
    });
    let during: Promise<void> | undefined;
    const seen = lines.push.bind(lines);
    // the moment the crash is logged (the 'error' event; 'exit' comes later) a new event arrives
    lines.push = (...items: string[]) => {
      if (!during && items.some((l) => l.includes('crasher crashed'))) during = w.run('greeter', 'agent:end', { n: 1 });
      return seen(...items);
    };
    await w.run('crasher', 'agent:end', {});
    await waitFor(() => during !== undefined, { what: 'the crash logged' });
    await during;
    expect(sent).toEqual(['greeter home:hello 1']);
    expect(lines).toContain('gateway hook crasher worker thread crashed; restarting in 50 ms');
  });

  it('a busy loop past the timeout is terminated after the grace period and the worker restarted', async () => {
    const { w, lines } = start(
      { spinner: `export function handle(e, context) { if (context.spin) { for (;;) {} } }` },
      { timeoutMs: 200, graceMs: 200 },
    );
    await w.run('spinner', 'agent:end', {});
    await expect(w.run('spinner', 'agent:end', { spin: true })).rejects.toThrow('was terminated');
    expect(lines.some((l) => l.startsWith("gateway hook spinner blocks the hooks' worker thread"))).toBe(true);
    await w.run('spinner', 'agent:end', {});
  });

  it('an async handler that only waits is not terminated', async () => {
    const { w, lines } = start(
      { waiter: `export async function handle() { await new Promise((r) => setTimeout(r, 600)); }` },
      { timeoutMs: 100, graceMs: 100 },
    );
    await w.run('waiter', 'agent:end', {});
    expect(lines.filter((l) => l.includes('terminated'))).toEqual([]);
  });

  it('a run queued while the worker went down, of a hook turned off by that fault, ends quietly without running', async () => {
    const { w, lines } = start({
      crasher: `export function handle() { setTimeout(() => { throw new Error('from a timer'); }, 1); }`,
    });
    let during: Promise<void> | undefined;
    const seen = lines.push.bind(lines);
    lines.push = (...items: string[]) => {
      // the third crash (the fault limit is 3): a new event for the same hook arrives before the exit
      if (
        !during &&
        lines.filter((l) => l.includes('crasher crashed')).length === 2 &&
        items.some((l) => l.includes('crasher crashed'))
      )
        during = w.run('crasher', 'agent:end', {});
      return seen(...items);
    };
    for (let i = 1; i <= 3; i++) {
      await w.run('crasher', 'agent:end', {});
      await waitFor(() => lines.filter((l) => l.includes('restarting')).length === i, { what: `restart ${i}` });
    }
    expect(during).toBeDefined();
    await during; // resolves: not posted to the next worker, which would refuse it as not loaded
    expect(lines).toContain("gateway hook crasher turned off: it stopped the hooks' worker thread too often");
    expect(w.active).toEqual([]);
  });

  it('a hook that keeps taking the worker down is turned off; a handler that fails to load is skipped', async () => {
    const { w, lines } = start({
      exiter: `export function handle() { process.exit(1); }`,
      broken: 'export const x = 1;',
      fine: 'export function handle() {}',
    });
    for (let i = 0; i < 3; i++) await w.run('exiter', 'agent:end', {}).catch(() => {});
    expect(lines).toContain("gateway hook exiter turned off: it stopped the hooks' worker thread too often");
    expect(lines.filter((l) => l.includes('gateway hook broken skipped'))).toEqual([
      expect.stringContaining('exports no handle'),
    ]);
    expect(w.active).toEqual(['fine']);
    await w.run('exiter', 'agent:end', {}); // off: resolves at once
    await waitFor(() => w.active.length === 1 && lines.filter((l) => l.includes('restarting')).length === 3, {
      what: 'the restart',
    });
    await w.run('fine', 'agent:end', {});
  });
});

describe('FaultCounter', () => {
  it('reaches the limit only within the window', () => {
    let now = 0;
    const c = new FaultCounter({ limit: 2, windowMs: 100 }, () => now);
    expect(c.record('a')).toBe(false);
    now = 150;
    expect(c.record('a')).toBe(false);
    now = 200;
    expect(c.record('a')).toBe(true);
  });
});

describe('the ping grace of an overdue worker', () => {
  it('is the hook timeout, at least 1 s and at most 5 s', () => {
    expect(pingGrace(30_000)).toBe(5_000);
    expect(pingGrace(2_500)).toBe(2_500);
    expect(pingGrace(1_000)).toBe(1_000);
    expect(pingGrace(100)).toBe(1_000);
  });
});

// Plugins cannot take the daemon down: `hermes gateway run` (the built CLI) with opt-in plugins whose
// register() calls process.exit, whose hook leaves throwing timers behind, and whose hook blocks the
// main thread for 1.5 s. The gateway stays up, chat messages get their replies, and every fault is a
// log line naming the plugin. (Gateway hooks, in their worker thread: extension-isolation.test.ts.)
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runHermes, tempHome, trustHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { waitFor } from '../helpers/wait-for.js';
import { health, logged, logMessages, useIsolationRig, writePlugin } from './lib/isolation.js';

const rig = useIsolationRig();
const env = rig.env;

describe('plugins', () => {
  const tg = () => rig.tg();
  it('register() calling process.exit: the gateway starts, the plugin is failed in the log and in plugins list', async () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), stringify({ plugins: { enabled: ['exiter', 'calm'] } }));
    writePlugin(home, 'exiter', 'export function register() { process.exit(0); }\n');
    writePlugin(home, 'calm', 'export function register(ctx) { ctx.registerHook("on_session_start", () => {}); }\n');
    trustHome(home);
    const gw = await spawnGateway(env(home));
    try {
      expect((await health(gw.url)).status).toBe(200);
      expect(logMessages(home).filter((m) => m.startsWith('plugin exiter failed to load'))).toEqual([
        'plugin exiter failed to load: process.exit(0) refused: only Hermes itself may end the process',
      ]);
      tg().pushMessage({ chatId: 42, userId: 42, text: 'hello' });
      await waitFor(() => tg().sent.some((m) => m.text === 'still here'), { what: 'the reply' });
    } finally {
      expect(await gw.stop()).toBe(0);
    }
    const list = await runHermes(['plugins', 'list', '--json'], { env: { HERMES_HOME: home } });
    expect(list.code, list.stderr).toBe(0);
    const entries = JSON.parse(list.stdout) as { name: string; state: string; error: string | null }[];
    expect(entries.find((e) => e.name === 'exiter')).toMatchObject({
      state: 'failed',
      error: expect.stringContaining('process.exit(0) refused'),
    });
    expect(entries.find((e) => e.name === 'calm')).toMatchObject({ state: 'enabled' });
  }, 60_000);

  it('a hook that keeps throwing from its timers is disabled after 5; a hook blocking the main thread makes /health degraded', async () => {
    const home = tempHome();
    const calls = join(home, 'flaky-calls');
    writeFileSync(join(home, 'config.yaml'), stringify({ plugins: { enabled: ['flaky', 'hog'] } }));
    writePlugin(
      home,
      'flaky',
      `import { appendFileSync } from 'node:fs';
export function register(ctx) {
  ctx.registerHook('on_session_start', () => {
    appendFileSync(${JSON.stringify(calls)}, 'x');
    for (let i = 0; i < 5; i++) setTimeout(() => { throw new Error('flaky timer ' + i); }, 5 * i);
    Promise.reject(new Error('flaky lost promise'));
  });
}
`,
    );
    writePlugin(
      home,
      'hog',
      `export function register(ctx) {
  ctx.registerHook('on_session_start', () => { const end = Date.now() + 1500; while (Date.now() < end) {} });
}
`,
    );
    trustHome(home);
    const gw = await spawnGateway(env(home));
    try {
      tg().pushMessage({ chatId: 42, userId: 42, text: 'first' });
      await waitFor(() => tg().sent.some((m) => m.text === 'still here'), { what: 'the reply' });
      await waitFor(() => logged(home, 'plugin flaky: hooks disabled after 5 faults'), { what: 'the plugin disabled' });
      const h = await health(gw.url);
      expect(h.status).toBe(200);
      expect(h.body).toMatchObject({ status: 'degraded', event_loop: { stalls_last_minute: 1 } });
      // a new session: the flaky hook is not called again; the gateway still answers
      tg().pushMessage({ chatId: 42, userId: 42, text: '/new' });
      await waitFor(() => tg().sent.length > 1, { what: 'the /new reply' });
      const before = tg().sent.length;
      tg().pushMessage({ chatId: 42, userId: 42, text: 'second' });
      await waitFor(() => tg().sent.length > before, { what: 'the second reply' });
      expect(readFileSync(calls, 'utf8')).toBe('x');
      const metrics = await (await fetch(`${gw.url}/metrics`)).text();
      expect(metrics).toMatch(/^hermes_event_loop_stalls_total [12]$/m);
    } finally {
      expect(await gw.stop()).toBe(0);
    }
    const messages = logMessages(home);
    expect(messages).toContain('plugin flaky fault: uncaught exception: flaky timer 0');
    expect(messages).toContain('plugin flaky fault: unhandled rejection: flaky lost promise');
    expect(messages.filter((m) => m.includes('hooks disabled'))).toHaveLength(1);
    expect(messages.some((m) => /^event loop blocked for 1\d{3} ms/.test(m))).toBe(true);
    expect(messages.filter((m) => m === 'uncaught exception')).toEqual([]);
  }, 60_000);
});

// Extensions cannot take the daemon down: `hermes gateway run` (the built CLI) with gateway hooks
// that throw from a timer, call process.exit and busy-loop for 20 s, and with opt-in plugins whose
// register() calls process.exit, whose hook leaves throwing timers behind, and whose hook blocks
// the main thread. The gateway stays up, /health answers at once while a hook loops, chat messages
// get their replies, and every fault is a log line naming the hook or plugin.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram-server.js';
import { runHermes, tempHome, trustHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { waitFor } from '../helpers/wait-for.js';

const TOKEN = '123456789:AAHfaketokenfaketokenfaketoken5678';
const openai = useFakeOpenAI();
let tg: FakeTelegram;
beforeAll(async () => {
  tg = await startFakeTelegram({ token: TOKEN, longPollCapMs: 200 });
});
afterAll(async () => {
  await tg.close();
});
beforeEach(() => {
  tg.reset();
  openai.server.reset();
  openai.server.respond(() => ({ text: 'still here' }));
});

const env = (home: string) => ({
  HERMES_HOME: home,
  OPENAI_BASE_URL: openai.server.url,
  HERMES_INFERENCE_MODEL: 'test-model',
  TELEGRAM_BOT_TOKEN: TOKEN,
  TELEGRAM_API_ROOT: tg.apiRoot,
  TELEGRAM_ALLOWED_USERS: '42',
});

/** The messages of the gateway's log (the console is off when stderr is not a terminal). */
function logMessages(home: string): string[] {
  const file = join(home, 'logs', 'gateway.log');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => String((JSON.parse(l) as { msg?: unknown }).msg));
}
const logged = (home: string, text: string) => logMessages(home).some((m) => m.includes(text));

function writeHook(home: string, name: string, events: string[], handler: string): void {
  const dir = join(home, 'hooks', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'HOOK.yaml'), stringify({ name, description: `test hook ${name}`, events }));
  writeFileSync(join(dir, 'handler.ts'), handler);
}

function writePlugin(home: string, name: string, code: string): void {
  const dir = join(home, 'plugins', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'plugin.yaml'), stringify({ name, version: '1.0.0', description: `test plugin ${name}` }));
  writeFileSync(join(dir, 'index.js'), code);
}

/** GET /health, with how long it took. */
async function health(url: string): Promise<{ ms: number; status: number; body: Record<string, unknown> }> {
  const started = Date.now();
  const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(5_000) });
  return { ms: Date.now() - started, status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('gateway hooks run in a worker thread', () => {
  it('a throw from a timer, process.exit and a 20 s busy loop: the gateway stays up, answers /health at once and replies', async () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), stringify({ gateway: { hook_timeout_s: 1 }, hooks_auto_accept: true }));
    trustHome(home);
    writeHook(
      home,
      'a-timer-thrower',
      ['gateway:startup'],
      `export function handle() { setTimeout(() => { throw new Error('thrown from a hook timer'); }, 10); }\n`,
    );
    writeHook(home, 'b-exiter', ['command:*'], 'export function handle() { process.exit(7); }\n');
    writeHook(
      home,
      'c-spinner',
      ['agent:start'],
      `export function handle(_e, _c, hermes) {
  hermes.logger.info('c-spinner spinning');
  const end = Date.now() + 20_000;
  while (Date.now() < end) {}
}\n`,
    );
    const gw = await spawnGateway(env(home));
    try {
      await waitFor(() => logged(home, 'gateway hook a-timer-thrower crashed: thrown from a hook timer'), {
        what: 'the timer crash logged',
      });
      tg.pushMessage({ chatId: 42, userId: 42, text: '/status' });
      await waitFor(() => logged(home, 'gateway hook b-exiter worker thread exited with code 7'), {
        what: 'the exit logged',
        timeoutMs: 60_000, // a worker thread's start on a loaded 2-core machine (a spinner hook holds a core)
      });
      await waitFor(() => tg.sent.length > 0, { what: 'the /status reply' });

      tg.pushMessage({ chatId: 42, userId: 42, text: 'are you there?' });
      await waitFor(() => tg.sent.some((m) => m.text === 'still here'), { what: 'the reply' });
      // the spinner runs on agent:start: its worker is busy for 20 s, the gateway is not
      await waitFor(() => logged(home, 'c-spinner spinning'), { what: 'the spinner spinning' });
      const during = await health(gw.url);
      expect(during.status).toBe(200);
      expect(during.ms).toBeLessThan(1_000);
      await waitFor(() => logged(home, "gateway hook c-spinner blocks the hooks' worker thread"), {
        what: 'the busy worker terminated',
      });
      await waitFor(
        () =>
          logMessages(home).some((m) =>
            /gateway hook c-spinner worker thread was terminated; restarting in \d+ ms/.test(m),
          ),
        { what: 'the worker restarting' },
      );
      expect((await health(gw.url)).ms).toBeLessThan(1_000);
      expect(gw.child.exitCode).toBe(null);
    } finally {
      expect(await gw.stop()).toBe(0);
    }
    const messages = logMessages(home);
    // the main thread never stalled: the loops were in the worker
    expect(messages.filter((m) => m.startsWith('event loop blocked'))).toEqual([]);
  }, 120_000);
});

describe('plugins', () => {
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
      tg.pushMessage({ chatId: 42, userId: 42, text: 'hello' });
      await waitFor(() => tg.sent.some((m) => m.text === 'still here'), { what: 'the reply' });
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
      tg.pushMessage({ chatId: 42, userId: 42, text: 'first' });
      await waitFor(() => tg.sent.some((m) => m.text === 'still here'), { what: 'the reply' });
      await waitFor(() => logged(home, 'plugin flaky: hooks disabled after 5 faults'), { what: 'the plugin disabled' });
      const h = await health(gw.url);
      expect(h.status).toBe(200);
      expect(h.body).toMatchObject({ status: 'degraded', event_loop: { stalls_last_minute: 1 } });
      // a new session: the flaky hook is not called again; the gateway still answers
      tg.pushMessage({ chatId: 42, userId: 42, text: '/new' });
      await waitFor(() => tg.sent.length > 1, { what: 'the /new reply' });
      const before = tg.sent.length;
      tg.pushMessage({ chatId: 42, userId: 42, text: 'second' });
      await waitFor(() => tg.sent.length > before, { what: 'the second reply' });
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

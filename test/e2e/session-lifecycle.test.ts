// Sessions' lifecycle through `hermes gateway run` on Telegram (real grammy against the fake Bot
// API, the real openai client against the fake model): the seed's hook order on /new and on a reset
// by the policy, the idle sweep finalizing an idle session with its reason (plugin hook and gateway
// event), and a loaded plugin's slash command answered in a chat.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram-server.js';
import { runHermes, tempHome, trustHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { waitFor } from '../helpers/wait-for.js';

const TOKEN = '123456789:AAHfaketokenfaketokenfaketoken7777';
const openai = useFakeOpenAI();
let tg: FakeTelegram;
beforeAll(async () => {
  tg = await startFakeTelegram({ token: TOKEN, longPollCapMs: 200 });
});
afterAll(async () => {
  await tg.close();
});
beforeEach(() => tg.reset());

/** A plugin recording the session hooks to HOOK_LOG, with a `/remember` command. */
const RECORDER_TS = `
import { appendFileSync } from 'node:fs';

type Payload = Record<string, unknown>;
const HOOKS = ['on_session_start', 'on_session_finalize', 'on_session_reset'] as const;

export function register(ctx: {
  registerHook(e: string, cb: (p: Payload) => unknown): void;
  registerCommand(c: { name: string; description: string; handler: (args: string) => unknown }): void;
}): void {
  for (const hook of HOOKS) {
    ctx.registerHook(hook, (payload: Payload) => {
      appendFileSync(process.env.HOOK_LOG as string, JSON.stringify({ hook, payload }) + '\\n');
    });
  }
  ctx.registerCommand({ name: 'remember', description: 'notes a thing', handler: (args) => 'noted: ' + args });
}
`;

/** A gateway hook writing every session:end it sees to EVENT_LOG. */
const SESSION_END_HOOK = `
import { appendFileSync } from 'node:fs';
export function handle(event: string, context: Record<string, unknown>) {
  appendFileSync(process.env.EVENT_LOG as string, JSON.stringify({ event, context }) + '\\n');
}
`;

type Entry = { hook: string; payload: Record<string, unknown> };

function setUpHome(config: string): { home: string; hookLog: string; eventLog: string } {
  const home = tempHome();
  const dir = join(home, 'plugins', 'recorder');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'plugin.yaml'), 'name: recorder\nversion: 1.0.0\ndescription: records session hooks\n');
  writeFileSync(join(dir, 'index.ts'), RECORDER_TS);
  writeFileSync(join(home, 'config.yaml'), `plugins:\n  enabled: [recorder]\n${config}`);
  trustHome(home); // the operator approves the user plugin (consent bound to content)
  return { home, hookLog: join(home, 'hooks.jsonl'), eventLog: join(home, 'events.jsonl') };
}

const env = (paths: { home: string; hookLog: string; eventLog: string }) => ({
  HERMES_HOME: paths.home,
  OPENAI_BASE_URL: openai.server.url,
  HERMES_INFERENCE_MODEL: 'test-model',
  TELEGRAM_BOT_TOKEN: TOKEN,
  TELEGRAM_API_ROOT: tg.apiRoot,
  TELEGRAM_ALLOWED_USERS: '42',
  HOOK_LOG: paths.hookLog,
  EVENT_LOG: paths.eventLog,
});

const lines = <T>(file: string): T[] =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as T)
    : [];

/** Sends a DM and waits for the n-th message the bot sent; returns its text. */
async function ask(text: string, n: number): Promise<string | undefined> {
  tg.pushMessage({ chatId: 42, userId: 42, text });
  await waitFor(() => tg.sent.length >= n, { what: `reply ${n} to ${text}` });
  return tg.sent[n - 1]?.text;
}

/** The session hooks as [hook, session, reason] rows. */
const sessionHooks = (file: string) =>
  lines<Entry>(file).map((e) => [e.hook, e.payload.sessionId, e.payload.reason ?? null] as const);

/** The seed's order over two sessions: start, finalize (with `reason`), reset, start; returns the first session. */
function seedOrder(file: string, reason: string): unknown {
  const rows = sessionHooks(file);
  const [first, second] = [rows[0]?.[1], rows[2]?.[1]];
  expect(rows).toEqual([
    ['on_session_start', first, null],
    ['on_session_finalize', first, reason],
    ['on_session_reset', second, null],
    ['on_session_start', second, null],
  ]);
  expect(first).not.toBe(second);
  return first;
}

describe('sessions through hermes gateway run', () => {
  it('/new: on_session_finalize (reason new), then on_session_reset, then on_session_start', async () => {
    const paths = setUpHome('');
    const gw = await spawnGateway(env(paths));
    try {
      openai.server.script({ text: 'first answer' }, { text: 'second answer' });
      expect(await ask('hello', 1)).toBe('first answer');
      expect(await ask('/new', 2)).toBe('Started a new session.');
      expect(await ask('hello again', 3)).toBe('second answer');
      await waitFor(() => sessionHooks(paths.hookLog).length >= 4, { what: 'the second on_session_start' });
    } finally {
      expect(await gw.stop()).toBe(0);
    }
    seedOrder(paths.hookLog, 'new');
  });

  it('the idle sweep finalizes an idle session (reason idle, session:end); the next message is a reset, then a start', async () => {
    // 0.05 minutes: idle after 3 s, swept every second
    const paths = setUpHome('session_reset:\n  mode: idle\n  idle_minutes: 0.05\n');
    const hookDir = join(paths.home, 'hooks', 'session-end-log');
    mkdirSync(hookDir, { recursive: true });
    writeFileSync(
      join(hookDir, 'HOOK.yaml'),
      'name: session-end-log\ndescription: logs session:end\nevents: [session:end]\n',
    );
    writeFileSync(join(hookDir, 'handler.ts'), SESSION_END_HOOK);
    expect((await runHermes(['hooks', 'approve', '--all'], { env: { HERMES_HOME: paths.home } })).code).toBe(0);
    const gw = await spawnGateway(env(paths));
    try {
      openai.server.script({ text: 'first answer' }, { text: 'second answer' });
      expect(await ask('hello', 1)).toBe('first answer');
      // nobody writes: the sweep, not a message, ends the session
      await waitFor(() => sessionHooks(paths.hookLog).some(([hook]) => hook === 'on_session_finalize'), {
        what: 'the sweep',
        timeoutMs: 20_000,
      });
      await waitFor(() => lines(paths.eventLog).length > 0, { what: 'session:end' });
      expect(sessionHooks(paths.hookLog).map(([hook]) => hook)).toEqual(['on_session_start', 'on_session_finalize']);
      expect(await ask('back again', 2)).toBe('second answer');
      await waitFor(() => sessionHooks(paths.hookLog).length >= 4, { what: 'the second on_session_start' });
    } finally {
      expect(await gw.stop()).toBe(0);
    }
    const first = seedOrder(paths.hookLog, 'idle');
    expect(lines<Entry>(paths.hookLog)[1]?.payload).toEqual({ sessionId: first, platform: 'telegram', reason: 'idle' });
    expect(lines(paths.eventLog)).toEqual([
      {
        event: 'session:end',
        context: {
          platform: 'telegram',
          user_id: '',
          session_id: first,
          session_key: 'telegram:42:dm',
          reason: 'idle',
        },
      },
    ]);
  });

  it("a loaded plugin's slash command is answered in the chat, without the model", async () => {
    const paths = setUpHome('');
    const gw = await spawnGateway(env(paths));
    try {
      const before = openai.server.requests.length;
      expect(await ask('/remember the milk', 1)).toBe('noted: the milk');
      expect(openai.server.requests.length).toBe(before);
    } finally {
      expect(await gw.stop()).toBe(0);
    }
  });
});

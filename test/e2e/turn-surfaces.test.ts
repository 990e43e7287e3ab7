// One turn path for every surface (issue 30), through `hermes gateway run` with the fake Telegram,
// the web chat, the API platform's chat completions and Responses, scheduled jobs and a gateway
// hook's runAgent: a pre_gateway_dispatch skip, a rewrite, a command and the run-slot limit
// (gateway.max_concurrent_runs: 1) each on every one of them. The plugin `turnplug` (in the temp
// HERMES_HOME) skips texts starting with "forbidden", rewrites "rewrite-me" to "rewritten" and
// registers /ping; the gateway hook `agent-runner` calls runAgent with the args of `/hookrun ARGS`.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '@hermes/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../fakes/openai-server.js';
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram-server.js';
import { runHermes, tempHome, trustHome } from '../helpers/run-hermes.js';
import { type RunningGateway, spawnGateway } from '../helpers/spawn-gateway.js';
import { readSse } from '../helpers/sse-client.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { waitFor } from '../helpers/wait-for.js';

const TOKEN = '123456789:AAHfaketokenTURNSURFACESfaketoken90';
const HOME_CHAT = -1001;
const openai = useFakeOpenAI();
let tg: FakeTelegram;
let gw: RunningGateway;
let home: string;
let hookLog: string;
let web: { post(text: string): Promise<number>; texts(): string[]; close(): void };
const jobIds: Record<string, string> = {};

const PLUGIN = `export function register(ctx: {
  registerHook(name: string, cb: (p: { event: { text: string } }) => unknown): void;
  registerCommand(c: { name: string; description: string; handler: (args: string) => string }): void;
}): void {
  ctx.registerHook('pre_gateway_dispatch', ({ event }) => {
    if (event.text.startsWith('forbidden')) return { action: 'skip', reason: 'forbidden' };
    if (event.text.startsWith('rewrite-me')) return { action: 'rewrite', text: event.text.replace('rewrite-me', 'rewritten') };
    return undefined;
  });
  ctx.registerCommand({ name: 'ping', description: 'answers pong', handler: () => 'pong' });
}
`;

const HOOK = `import { appendFileSync } from 'node:fs';
export async function handle(_event: string, context: Record<string, unknown>, hermes: { runAgent(p: string): Promise<unknown> }) {
  const prompt = String(context.args);
  const result = await hermes.runAgent(prompt);
  appendFileSync(process.env.HOOK_LOG as string, JSON.stringify({ prompt, result }) + '\\n');
}
`;

const lastUser = (r: RecordedRequest): string => {
  const messages = (r.body as { messages?: { role: string; content: unknown }[] } | undefined)?.messages ?? [];
  const last = messages.filter((m) => m.role === 'user').at(-1)?.content;
  return typeof last === 'string' ? last : JSON.stringify(last ?? '');
};
const asked = () => openai.server.requests.filter((r) => r.path.endsWith('/chat/completions')).map(lastUser);

/** The fake model answers "answer to: TEXT"; a text starting with "hold" waits for release(). */
const holds: (() => void)[] = [];
const release = () => {
  for (const resolve of holds.splice(0)) resolve();
};
function answerEverything(): void {
  openai.server.respond(async (request) => {
    const text = lastUser(request);
    if (text.startsWith('hold')) await new Promise<void>((r) => holds.push(r));
    return { text: `answer to: ${text}` };
  });
}

const metrics = async () => (await fetch(`${gw.url}/metrics`)).text();
const metric = async (pattern: RegExp) => Number(pattern.exec(await metrics())?.[1] ?? 0);

/** Telegram: a message from `user` (42 or 43) in their DM. */
const telegram = (text: string, user = 42) => tg.pushMessage({ chatId: user, userId: user, text });
const telegramSent = () => tg.sent.map((m) => String(m.text));

async function completions(text: string, options: { key?: string; stream?: boolean } = {}) {
  return fetch(`${gw.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(options.key ? { 'x-hermes-session': options.key } : {}) },
    body: JSON.stringify({
      model: 'hermes',
      stream: options.stream ?? false,
      messages: [{ role: 'user', content: text }],
    }),
  });
}
const completionText = async (res: Response) =>
  ((await res.json()) as { choices: { message: { content: string } }[] }).choices[0]?.message.content;

const responses = (text: string) =>
  fetch(`${gw.url}/v1/responses`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'hermes', input: text }),
  });

/** The fires of a job, newest first, as state.db holds them beside the running gateway. */
function fires(jobId: string) {
  const store = openStore(join(home, 'state.db'), { backgroundCheckpoints: false });
  try {
    return store.cronJobs.fires(jobId);
  } finally {
    store.close();
  }
}

/** `hermes cron run ID`: the running gateway fires it within its 2 s re-read. */
async function fireJob(name: string): Promise<void> {
  const id = jobIds[name] ?? '';
  const run = await runHermes(['cron', 'run', id], { env: { HERMES_HOME: home } });
  expect(run.code, run.stderr).toBe(0);
}
const fireEnded = (name: string) => {
  const [fire] = fires(jobIds[name] ?? '');
  return fire !== undefined && fire.status !== 'running' && fire.status !== 'answered';
};

/** A hook's runAgent: `/hookrun PROMPT` on Telegram fires `command:hookrun`; the hook logs what runAgent returned. */
const hookRun = (prompt: string) => telegram(`/hookrun ${prompt}`);
function hookResult(prompt: string): { status: string; text: string | null; error?: string } | undefined {
  if (!existsSync(hookLog)) return undefined;
  return readFileSync(hookLog, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((l) => JSON.parse(l) as { prompt: string; result: { status: string; text: string | null; error?: string } })
    .find((e) => e.prompt === prompt)?.result;
}

/**
 * The web chat on 127.0.0.1 as the operator: logged in to the console with a one-time link of
 * `hermes console url` (with the terminal tool on, loopback is no login), so admitted without pairing.
 */
async function openWebChat(): Promise<typeof web> {
  const link = await runHermes(['console', 'url'], { env: { HERMES_HOME: home } });
  expect(link.code, link.stderr).toBe(0);
  const login = await fetch(link.stdout.trim(), { redirect: 'manual' });
  expect(login.status).toBe(303);
  const consoleCookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const session = await fetch(`${gw.url}/chat/api/session`, { headers: { cookie: consoleCookie } });
  const cookie = [consoleCookie, (session.headers.get('set-cookie') ?? '').split(';')[0] ?? ''].join('; ');
  const { csrf, operator } = (await session.json()) as { csrf: string; operator: boolean };
  expect(operator).toBe(true);
  const stream = readSse(`${gw.url}/chat/api/stream`, { cookie });
  await stream.opened;
  return {
    post: async (text) =>
      (
        await fetch(`${gw.url}/chat/api/messages`, {
          method: 'POST',
          headers: { cookie, 'x-hermes-csrf': csrf, 'content-type': 'application/json' },
          body: JSON.stringify({ text }),
        })
      ).status,
    texts: () => stream.events.map((e) => (JSON.parse(e.data) as { text?: string }).text ?? ''),
    close: () => stream.close(),
  };
}

async function addJob(name: string, prompt: string): Promise<void> {
  const added = await runHermes(
    ['cron', 'add', 'every 1h', prompt, '--name', name, '--deliver', 'telegram', '--json'],
    {
      env: { HERMES_HOME: home },
    },
  );
  expect(added.code, added.stderr).toBe(0);
  jobIds[name] = (JSON.parse(added.stdout) as { id: string }).id;
}

beforeAll(async () => {
  tg = await startFakeTelegram({ token: TOKEN, longPollCapMs: 200 });
  home = tempHome();
  hookLog = join(home, 'hook-runs.jsonl');
  writeFileSync(join(home, 'config.yaml'), 'plugins:\n  enabled: [turnplug]\ngateway:\n  max_concurrent_runs: 1\n');
  const plugin = join(home, 'plugins', 'turnplug');
  mkdirSync(plugin, { recursive: true });
  writeFileSync(
    join(plugin, 'plugin.yaml'),
    'name: turnplug\nversion: 1.0.0\nprovides_hooks: [pre_gateway_dispatch]\n',
  );
  writeFileSync(join(plugin, 'index.ts'), PLUGIN);
  const hook = join(home, 'hooks', 'agent-runner');
  mkdirSync(hook, { recursive: true });
  writeFileSync(
    join(hook, 'HOOK.yaml'),
    'name: agent-runner\ndescription: runAgent on /hookrun\nevents:\n  - "command:hookrun"\n',
  );
  writeFileSync(join(hook, 'handler.ts'), HOOK);
  expect((await runHermes(['hooks', 'approve', '--all'], { env: { HERMES_HOME: home } })).code).toBe(0);
  trustHome(home); // the user plugin turnplug, approved by the operator
  for (const [name, prompt] of [
    ['skip', 'forbidden cron report'],
    ['rewrite', 'rewrite-me cron'],
    ['command', '/ping'],
    ['lane', 'lane cron'],
  ] as const)
    await addJob(name, prompt);
  // users 42 and 43 write on Telegram; cron jobs deliver to its home channel
  const telegramEnv = { TELEGRAM_ALLOWED_USERS: '42,43', TELEGRAM_HOME_CHANNEL: String(HOME_CHAT) };
  const model = { OPENAI_BASE_URL: openai.server.url, HERMES_INFERENCE_MODEL: 'test-model' };
  const bot = { TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_API_ROOT: tg.apiRoot };
  gw = await spawnGateway({ HERMES_HOME: home, HOOK_LOG: hookLog, ...model, ...bot, ...telegramEnv });
  web = await openWebChat();
}, 60_000);

afterAll(async () => {
  web?.close();
  if (gw) expect(await gw.stop()).toBe(0);
  await tg.close();
});

/**
 * Runs each surface's check and collects what failed, so a regression names every surface it
 * touches (the last expect lists them), not only the first.
 */
async function everySurface(checks: Record<string, () => Promise<void>>): Promise<void> {
  const failed: string[] = [];
  for (const [surface, check] of Object.entries(checks)) {
    try {
      await check();
    } catch (error) {
      failed.push(`${surface}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    }
  }
  expect(failed).toEqual([]);
}

const errorCode = async (res: Response) => ((await res.json()) as { error?: { code?: string } }).error?.code;
const ignored = (platform: string) =>
  metric(new RegExp(`^hermes_messages_ignored_total\\{platform="${platform}",reason="hook_skip"\\} (\\d+)$`, 'm'));

describe('one turn path for every surface (hermes gateway run)', () => {
  it('a pre_gateway_dispatch skip stops the text on every surface before the model', async () => {
    answerEverything();
    await everySurface({
      telegram: async () => {
        telegram('forbidden telegram');
        await waitFor(async () => (await ignored('telegram')) === 1, { what: 'the telegram skip counted' });
      },
      web: async () => {
        expect(await web.post('forbidden web')).toBe(202);
        await waitFor(async () => (await ignored('web')) === 1, { what: 'the web skip counted' });
      },
      completions: async () => {
        const refused = await completions('forbidden completions');
        expect(refused.status).toBe(403);
        expect(await errorCode(refused)).toBe('refused_by_hook');
      },
      responses: async () => {
        const refused = await responses('forbidden responses');
        expect(refused.status).toBe(403);
        expect(await errorCode(refused)).toBe('refused_by_hook');
        expect(await ignored('api')).toBe(2);
      },
      cron: async () => {
        await fireJob('skip');
        await waitFor(() => fireEnded('skip'), { what: 'the cron fire' });
        expect(fires(jobIds.skip ?? '')[0]).toMatchObject({
          status: 'silent',
          error: expect.stringMatching(/pre_gateway_dispatch/),
        });
        expect(await ignored('cron')).toBe(1);
      },
      hook: async () => {
        hookRun('forbidden hook');
        await waitFor(() => hookResult('forbidden hook') !== undefined, { what: 'the hook run' });
        expect(hookResult('forbidden hook')).toMatchObject({
          status: 'failed',
          text: null,
          error: expect.stringMatching(/pre_gateway_dispatch/),
        });
        expect(await ignored('gateway')).toBe(1);
      },
    });
    expect(asked().filter((t) => t.includes('forbidden'))).toEqual([]);
  }, 120_000);

  it('a pre_gateway_dispatch rewrite reaches the model on every surface', async () => {
    answerEverything();
    await everySurface({
      telegram: async () => {
        telegram('rewrite-me telegram');
        await waitFor(() => telegramSent().includes('answer to: rewritten telegram'), { what: 'the telegram answer' });
      },
      web: async () => {
        expect(await web.post('rewrite-me web')).toBe(202);
        await waitFor(() => web.texts().includes('answer to: rewritten web'), { what: 'the web answer' });
      },
      completions: async () => {
        expect(await completionText(await completions('rewrite-me completions'))).toBe(
          'answer to: rewritten completions',
        );
      },
      responses: async () => {
        const response = (await (await responses('rewrite-me responses')).json()) as { output_text: string };
        expect(response.output_text).toBe('answer to: rewritten responses');
      },
      cron: async () => {
        await fireJob('rewrite');
        await waitFor(() => fireEnded('rewrite'), { what: 'the cron fire' });
        expect(tg.sent.filter((m) => m.chat_id === HOME_CHAT).at(-1)?.text).toBe('answer to: rewritten cron');
      },
      hook: async () => {
        hookRun('rewrite-me hook');
        await waitFor(() => hookResult('rewrite-me hook') !== undefined, { what: 'the hook run' });
        expect(hookResult('rewrite-me hook')).toMatchObject({ status: 'completed', text: 'answer to: rewritten hook' });
      },
    });
    expect(asked().filter((t) => t.includes('rewrite-me'))).toEqual([]);
  }, 120_000);

  it('a command answers on every surface without the model; /new on a keyed API session starts a new one', async () => {
    answerEverything();
    await everySurface({
      telegram: async () => {
        telegram('/ping');
        await waitFor(() => tg.sent.some((m) => m.chat_id === 42 && m.text === 'pong'), {
          what: 'the telegram answer',
        });
      },
      web: async () => {
        expect(await web.post('/ping')).toBe(202);
        await waitFor(() => web.texts().includes('pong'), { what: 'the web answer' });
      },
      completions: async () => {
        expect(await completionText(await completions('/ping'))).toBe('pong');
        // streamed: the command's answer is the stream's text
        const streamed = await (await completions('/ping', { stream: true })).text();
        const deltas = streamed
          .split('\n\n')
          .filter((b) => b.startsWith('data: {'))
          .map(
            (b) =>
              (JSON.parse(b.slice(6)) as { choices: { delta: { content?: string } }[] }).choices[0]?.delta.content ??
              '',
          );
        expect(deltas.join('')).toBe('pong');
        expect(streamed.trim().endsWith('data: [DONE]')).toBe(true);
        // /new on a keyed session: the next turn starts without the earlier messages
        await completions('remember apples', { key: 'alice' });
        expect(await completionText(await completions('/new', { key: 'alice' }))).toBe('Started a new session.');
        await completions('which fruit?', { key: 'alice' });
        const last = openai.server.requests.at(-1)?.body as { messages: { content: string }[] };
        expect(last.messages.map((m) => m.content)).toContain('which fruit?');
        expect(last.messages.map((m) => m.content)).not.toContain('remember apples');
      },
      responses: async () => {
        const response = (await (await responses('/ping')).json()) as { output_text: string; status: string };
        expect(response).toMatchObject({ status: 'completed', output_text: 'pong' });
      },
      cron: async () => {
        await fireJob('command');
        await waitFor(() => fireEnded('command'), { what: 'the cron fire' });
        expect(tg.sent.filter((m) => m.chat_id === HOME_CHAT).at(-1)?.text).toBe('pong');
      },
      hook: async () => {
        hookRun('/ping');
        await waitFor(() => hookResult('/ping') !== undefined, { what: 'the hook run' });
        expect(hookResult('/ping')).toMatchObject({ status: 'completed', text: 'pong' });
      },
    });
    expect(asked().filter((t) => t.startsWith('/'))).toEqual([]);
  }, 120_000);

  it('gateway.max_concurrent_runs holds every surface while another turn has the only run slot', async () => {
    answerEverything();
    let round = 0;
    /** user 42's turn takes the one run slot; `submit` then waits for it (queued) until the hold is released */
    const whileHeld = async (surface: string, submit: () => Promise<unknown>, answered: () => boolean) => {
      round++;
      telegram(`hold ${round}`);
      await waitFor(() => holds.length > 0, { what: `the hold of ${surface}` });
      const pending = submit();
      try {
        await waitFor(async () => (await metric(/^hermes_turns_queued (\d+)$/m)) >= 1, {
          what: `${surface} queued for a run slot`,
        });
        expect(asked()).not.toContain(`lane ${surface}`);
      } finally {
        release();
      }
      await pending;
      await waitFor(answered, { what: `${surface} answered` });
      expect(asked().indexOf(`lane ${surface}`)).toBeGreaterThan(asked().indexOf(`hold ${round}`));
    };
    let completion: string | undefined;
    let response: string | undefined;
    await everySurface({
      telegram: () =>
        whileHeld(
          'telegram',
          async () => telegram('lane telegram', 43),
          () => telegramSent().includes('answer to: lane telegram'),
        ),
      web: () =>
        whileHeld(
          'web',
          () => web.post('lane web'),
          () => web.texts().includes('answer to: lane web'),
        ),
      completions: () =>
        whileHeld(
          'completions',
          async () => (completion = await completionText(await completions('lane completions'))),
          () => completion === 'answer to: lane completions',
        ),
      responses: () =>
        whileHeld(
          'responses',
          async () =>
            (response = ((await (await responses('lane responses')).json()) as { output_text: string }).output_text),
          () => response === 'answer to: lane responses',
        ),
      cron: () =>
        whileHeld(
          'cron',
          () => fireJob('lane'),
          () => telegramSent().includes('answer to: lane cron'),
        ),
      hook: () =>
        whileHeld(
          'hook',
          async () => hookRun('lane hook'),
          () => hookResult('lane hook')?.text === 'answer to: lane hook',
        ),
    });
  }, 180_000);
});

// Secrets never appear in logs, transcripts or what users are sent: `hermes gateway run` as a real
// process, with every kind of secret the suite uses (bot tokens, the Slack app token and signing
// secret, the Telegram webhook secret, API_SERVER_KEY, the model's API key), at debug log level,
// driven through turns that put secrets in harm's way: a model endpoint echoing its key in errors,
// a (prompt-injected) model reading .env and config.yaml and running `env` and `cat .env`, and
// answering with what it read. Afterwards every log line, every row of state.db, every message
// sent on every platform, every API answer and the daemon's stderr are searched.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { dmUpdate, TelegramIds } from '../bad-input/corpus/telegram.js';
import {
  ALLOWED,
  DISCORD_TOKEN,
  type Fakes,
  lastUserText,
  platformSetup,
  post,
  SLACK_APP_TOKEN,
  SLACK_BOT_TOKEN,
  SLACK_PATH,
  SLACK_SIGNING_SECRET,
  startFakes,
  TG_PATH,
  TG_SECRET,
  TG_TOKEN,
} from '../bad-input/lib/platforms.js';
import { eventually, until } from '../bad-input/lib/wait.js';
import { type FakeOpenAI, type Reply, startFakeOpenAI } from '../fakes/openai-server.js';
import { tempHome } from '../helpers/run-hermes.js';
import { type RunningGateway, spawnGateway } from '../helpers/spawn-gateway.js';

const MODEL_KEY = 'sk-proj-SECURITYmodelKEY0123456789abcdefABCDEF';
const API_KEY = 'security-api-server-key-2b7e151628aed2a6';
const SECRETS: Record<string, string> = {
  TELEGRAM_BOT_TOKEN: TG_TOKEN,
  'telegram webhook_secret': TG_SECRET,
  DISCORD_BOT_TOKEN: DISCORD_TOKEN,
  SLACK_BOT_TOKEN,
  SLACK_APP_TOKEN,
  SLACK_SIGNING_SECRET,
  API_SERVER_KEY: API_KEY,
  OPENAI_API_KEY: MODEL_KEY,
};

let model: FakeOpenAI;
let fakes: Fakes;
let gw: RunningGateway;
let home: string;
const apiAnswers: string[] = [];

/** What the scripted model does for each marker: fail echoing its key, or read secrets and repeat them. */
function scenario(text: string, lastRole: string | undefined, toolResult: string): Reply {
  const echo = (): Reply => ({ text: `Here is what I found: ${toolResult}` });
  if (text.includes('leak-model-401')) {
    return {
      status: 401,
      body: { error: { message: `Incorrect API key provided: ${MODEL_KEY}.`, type: 'invalid_request_error' } },
    };
  }
  if (text.includes('leak-model-500')) {
    return { status: 500, body: { error: { message: `upstream refused Authorization: Bearer ${MODEL_KEY}` } } };
  }
  const tool = (name: string, args: object): Reply =>
    lastRole === 'tool' ? echo() : { toolCalls: [{ name, arguments: args }] };
  if (text.includes('leak-read-env')) return tool('read_file', { path: join(home, '.env') });
  if (text.includes('leak-read-config')) return tool('read_file', { path: join(home, 'config.yaml') });
  if (text.includes('leak-terminal-env')) return tool('terminal', { command: 'env' });
  if (text.includes('leak-terminal-cat')) return tool('terminal', { command: `cat ${join(home, '.env')}` });
  return { text: `echo: ${text.slice(0, 100)}` };
}

beforeAll(async () => {
  model = await startFakeOpenAI({ requireKey: MODEL_KEY });
  model.respond((request) => {
    const messages = (request.body?.messages ?? []) as { role: string; content?: unknown }[];
    const last = messages.at(-1);
    return scenario(lastUserText(request), last?.role, last?.role === 'tool' ? String(last.content) : '');
  });
  fakes = await startFakes();
  home = tempHome();
  const { env, platforms } = platformSetup(fakes, 'http');
  // the tokens are also in HERMES_HOME/.env, as an operator keeps them (and a model may try to read them)
  writeFileSync(
    join(home, '.env'),
    Object.entries({ ...env, SLACK_APP_TOKEN, API_SERVER_KEY: API_KEY, OPENAI_API_KEY: MODEL_KEY })
      .map(([k, v]) => `${k}=${v}`)
      .join('\n'),
  );
  writeFileSync(
    join(home, 'config.yaml'),
    stringify({
      logging: { level: 'debug' },
      terminal: { cwd: home },
      agent: { api_max_retries: 0 },
      gateway: { platforms },
    }),
  );
  gw = await spawnGateway(
    {
      ...env,
      SLACK_APP_TOKEN,
      HERMES_HOME: home,
      HERMES_LOCK_DIR: join(home, 'locks'),
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: MODEL_KEY,
      HERMES_INFERENCE_MODEL: 'security-model',
      API_SERVER_KEY: API_KEY,
    },
    30_000,
  );
  await fakes.discord.until(() => fakes.discord.latestReady(), 20_000, 'discord ready');
}, 60_000);

afterAll(async () => {
  await fakes?.close();
  await model?.close();
});

const SCENARIOS = [
  'hello',
  'leak-model-401',
  'leak-model-500',
  'leak-read-env',
  'leak-read-config',
  'leak-terminal-env',
  'leak-terminal-cat',
];

describe('secrets never appear in logs, transcripts or what users are sent', () => {
  it('every platform, every scenario: nothing anywhere contains a secret', async () => {
    const ids = new TelegramIds(1);
    const tgHeaders = { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': TG_SECRET };
    let turns = 0;
    for (const s of SCENARIOS) {
      const res = await post(`${gw.url}${TG_PATH}`, JSON.stringify(dmUpdate(ids, `${s} tg`).update), tgHeaders);
      expect(res.status).toBe(200);
      fakes.discord.dmMessage({ user: ALLOWED.discord, content: `${s} discord` });
      const slackRes = await fakes.slack.postEvent(
        `${gw.url}${SLACK_PATH}`,
        fakes.slack.eventCallback(
          fakes.slack.messageEvent({
            channel: ALLOWED.slack.dm,
            user: ALLOWED.slack.id,
            text: `${s} slack`,
            channelType: 'im',
          }),
        ),
      );
      expect(slackRes.status).toBe(200);
      const api = await fetch(`${gw.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${API_KEY}` },
        body: JSON.stringify({ messages: [{ role: 'user', content: `${s} api` }] }),
      });
      apiAnswers.push(`${api.status} ${await api.text()}`);
      turns += 4;
    }
    // every platform answered every scenario (an answer or an apology)
    await until('every platform answer', () => fakes.telegram.sent.length >= SCENARIOS.length, 30_000);
    await until('every discord answer', () => fakes.discord.sent.length >= SCENARIOS.length, 30_000);
    await until('every slack answer', () => fakes.slack.posted.length >= SCENARIOS.length, 30_000);
    // the leaking turns did happen: the model saw its tools' output
    expect(model.requests.some((r) => r.rawBody.includes('"role":"tool"'))).toBe(true);
    expect(await gw.stop()).toBe(0);
    await eventually(() => false, 200);

    const places: Record<string, string> = {
      'gateway.log': readdirSync(join(home, 'logs'))
        .map((f) => readFileSync(join(home, 'logs', f), 'utf8'))
        .join('\n'),
      'state.db': dumpDatabase(join(home, 'state.db')),
      'telegram messages': fakes.telegram.sent.map((m) => m.text).join('\n'),
      'discord messages': fakes.discord.sent.map((m) => m.content).join('\n'),
      'slack messages': fakes.slack.posted.map((m) => m.text).join('\n'),
      'API answers': apiAnswers.join('\n'),
      'daemon stderr': gw.stderr(),
    };
    const leaks: string[] = [];
    for (const [where, text] of Object.entries(places)) {
      for (const [name, secret] of Object.entries(SECRETS))
        if (text.includes(secret)) leaks.push(`${name} in ${where}`);
    }
    expect(leaks).toEqual([]);
    // the places are not empty: the search looked at something
    expect(places['gateway.log']?.length).toBeGreaterThan(1_000);
    expect(places['state.db']).toContain('leak-read-env');
    // the dangerous turns did reach users, with the secrets replaced: the model's echoed key in the
    // apology, the tokens in what read_file and the terminal returned
    expect(places['telegram messages']).toMatch(/could not answer: .*Incorrect API key provided: \[REDACTED\]/);
    expect(places['state.db']).toContain('TELEGRAM_BOT_TOKEN=[REDACTED]');
    expect(places['slack messages']).toContain('SLACK_SIGNING_SECRET=[REDACTED]');
    console.log(
      `secrets: ${Object.keys(SECRETS).length} secrets, ${turns} turns over 4 surfaces, searched ${Object.keys(places).length} places (${Object.values(places).reduce((n, t) => n + t.length, 0)} characters): no leak`,
    );
  }, 120_000);
});

/** Every text value of every table, one per line. */
function dumpDatabase(path: string): string {
  const db = new Database(path, { readonly: true });
  try {
    const tables = db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'").all();
    const out: string[] = [];
    for (const { name } of tables) {
      for (const row of db.prepare(`SELECT * FROM "${name}"`).all() as Record<string, unknown>[]) {
        for (const value of Object.values(row)) if (typeof value === 'string') out.push(value);
      }
    }
    return out.join('\n');
  } finally {
    db.close();
  }
}

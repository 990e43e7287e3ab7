// Secrets never appear in logs, transcripts or what users are sent: `hermes gateway run` as a real
// process, with every kind of secret the suite uses (bot tokens, the Slack app token and signing
// secret, the Telegram webhook secret, API_SERVER_KEY, the model's API key), at debug log level,
// driven through turns that put secrets in harm's way: a model endpoint echoing its key in errors,
// a (prompt-injected) model reading .env and config.yaml and running `env` and `cat .env`, and
// encoding what it finds (`base64`, `rev`, `xxd -p`, spaced out with `sed`) from a notes.txt in
// its working directory that holds secrets with names no rule guesses (GITHUB_PAT, SMTP_PASS, the
// password inside DATABASE_URL: redacted because they are in .env), and answering with what it
// read. Afterwards every log line, every row of state.db, every message sent on every platform,
// every API answer and the daemon's stderr are searched, for every encoded form too. A second
// gateway, whose model URL carries credentials and points at a dead port, is searched the same way.
import { readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
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
import { dumpDatabase, findLeaks } from './lib/leak-search.js';

const MODEL_KEY = 'sk-proj-SECURITYmodelKEY0123456789abcdefABCDEF';
const API_KEY = 'security-api-server-key-2b7e151628aed2a6';
// secrets whose names say nothing: redacted because they are in HERMES_HOME/.env
const GITHUB_PAT = 'ghp_SECURITYpat0123456789abcdefGHIJKLMNOP';
const SMTP_PASS = 'smtp-Secur1ty-passw0rd';
const DB_PASSWORD = 'db-Secur1ty-Pa55word';
const DATABASE_URL = `postgres://hermes:${DB_PASSWORD}@127.0.0.1:5432/prod`;
const NOTES = `GITHUB_PAT=${GITHUB_PAT}\nSMTP_PASS=${SMTP_PASS}\nDATABASE_URL=${DATABASE_URL}\nkey: ${MODEL_KEY}\n`;
const SECRETS: Record<string, string> = {
  GITHUB_PAT,
  SMTP_PASS,
  'DATABASE_URL password': DB_PASSWORD,
  DATABASE_URL,
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
  // HERMES_HOME/.env through a link whose name hides it (a command naming HERMES_HOME needs approval)
  if (text.includes('leak-terminal-cat')) return tool('terminal', { command: 'cat dotenv-link' });
  // the notes.txt in the working directory, encoded every way the redaction knows
  if (text.includes('leak-base64')) return tool('terminal', { command: 'base64 notes.txt; base64 -w0 notes.txt' });
  if (text.includes('leak-rev')) return tool('terminal', { command: 'rev notes.txt' });
  if (text.includes('leak-hex')) return tool('terminal', { command: 'xxd -p notes.txt' });
  if (text.includes('leak-spaced'))
    return tool('terminal', { command: "sed 's/./& /g' notes.txt; fold -w1 notes.txt" });
  // a model that knows secrets by itself (from its context, a poisoned page) and says them, encoded too
  if (text.includes('leak-model-says')) {
    const b64 = (v: string) => Buffer.from(v).toString('base64');
    return {
      text: `key ${MODEL_KEY}, pat ${b64(GITHUB_PAT)}, db ${DATABASE_URL}, smtp ${[...SMTP_PASS].reverse().join('')}`,
    };
  }
  if (text.includes('leak-printenv')) return tool('terminal', { command: 'cat notes.txt; printenv' });
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
    Object.entries({
      ...env,
      SLACK_APP_TOKEN,
      API_SERVER_KEY: API_KEY,
      OPENAI_API_KEY: MODEL_KEY,
      GITHUB_PAT,
      SMTP_PASS,
      DATABASE_URL,
    })
      .map(([k, v]) => `${k}=${v}`)
      .join('\n'),
  );
  // the working directory beside HERMES_HOME (one inside it becomes a per-session workspace)
  const work = tempHome();
  writeFileSync(join(work, 'notes.txt'), NOTES);
  symlinkSync(join(home, '.env'), join(work, 'dotenv-link'));
  writeFileSync(
    join(home, 'config.yaml'),
    stringify({
      logging: { level: 'debug' },
      // every message of a chat is answered: the default (interrupt) would abort a turn still running
      // when the chat's next message arrives, and on a slow machine some would get no answer
      display: { busy_input_mode: 'queue' },
      terminal: { cwd: work },
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

/** The inbox and outbox rows of one platform and the log's warnings, for a timed-out wait. */
function explain(platform: string): string {
  const db = new Database(join(home, 'state.db'), { readonly: true, fileMustExist: true });
  try {
    const inbox = db.prepare('SELECT id, status FROM inbox WHERE platform = ?').all(platform);
    const outbox = db
      .prepare('SELECT inbox_id, chunk_index, status, attempts, last_error FROM outbox WHERE platform = ?')
      .all(platform);
    const warnings = readdirSync(join(home, 'logs'))
      .flatMap((f) => readFileSync(join(home, 'logs', f), 'utf8').split('\n'))
      .filter((line) => /"level":[456]0/.test(line))
      .slice(-40);
    return [`inbox ${JSON.stringify(inbox)}`, `outbox ${JSON.stringify(outbox)}`, ...warnings].join('\n');
  } finally {
    db.close();
  }
}

const SCENARIOS = [
  'hello',
  'leak-model-401',
  'leak-model-500',
  'leak-read-env',
  'leak-read-config',
  'leak-terminal-env',
  'leak-terminal-cat',
  'leak-base64',
  'leak-rev',
  'leak-hex',
  'leak-spaced',
  'leak-printenv',
  'leak-model-says',
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
    const answered: Record<string, () => number> = {
      telegram: () => fakes.telegram.sent.length,
      discord: () => fakes.discord.sent.length,
      slack: () => fakes.slack.posted.length,
    };
    for (const [platform, count] of Object.entries(answered)) {
      // a timeout names what the gateway recorded for that platform, so a failure says why
      await until(`every ${platform} answer`, () => count() >= SCENARIOS.length, 60_000).catch((error: unknown) => {
        throw new Error(`${String(error)} (${count()} of ${SCENARIOS.length})\n${explain(platform)}`);
      });
    }
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
    const leaks = findLeaks(places, SECRETS);
    expect(leaks).toEqual([]);
    // the places are not empty: the search looked at something
    expect(places['gateway.log']?.length).toBeGreaterThan(1_000);
    expect(places['state.db']).toContain('leak-read-env');
    // the dangerous turns did reach users, with the secrets replaced: the model's echoed key in the
    // apology, the tokens in what read_file and the terminal returned
    // people are told a plain sentence, what happened (the provider's words, redacted) and a code
    expect(places['telegram messages']).toContain(
      'Sorry, I could not answer: The model server refused our credentials, HTTP 401: Incorrect API key provided: [REDACTED]',
    );
    expect(places['telegram messages']).toMatch(/HTTP 500: .*\(HERMES_MODEL_HTTP\)\./);
    expect(places['API answers']).toContain('The model server refused our credentials, HTTP 401: Incorrect API key');
    expect(places['gateway.log']).toContain('Incorrect API key provided: [REDACTED]');
    // the encoding turns did run, and what came back was redacted
    expect(model.requests.some((r) => r.rawBody.includes('base64 notes.txt'))).toBe(true);
    expect(places['state.db']).toContain('GITHUB_PAT=[REDACTED]');
    expect(places['state.db']).toContain('TELEGRAM_BOT_TOKEN=[REDACTED]');
    expect(places['slack messages']).toContain('SLACK_SIGNING_SECRET=[REDACTED]');
    console.log(
      `secrets: ${Object.keys(SECRETS).length} secrets, ${turns} turns over 4 surfaces, searched ${Object.keys(places).length} places (${Object.values(places).reduce((n, t) => n + t.length, 0)} characters): no leak`,
    );
  }, 240_000);

  it('a model URL with credentials and a dead port: the credentials appear nowhere, people get a code', async () => {
    const deadHome = tempHome();
    const port = await closedPort();
    const baseUrl = `http://user:pass@127.0.0.1:${port}/v1`;
    const { env, platforms } = platformSetup(fakes, 'http');
    writeFileSync(
      join(deadHome, 'config.yaml'),
      stringify({ logging: { level: 'debug' }, agent: { api_max_retries: 0 }, gateway: { platforms } }),
    );
    const sentBefore = fakes.telegram.sent.length;
    const dead = await spawnGateway(
      {
        ...env,
        SLACK_APP_TOKEN,
        HERMES_HOME: deadHome,
        HERMES_LOCK_DIR: join(deadHome, 'locks'),
        OPENAI_BASE_URL: baseUrl,
        OPENAI_API_KEY: MODEL_KEY,
        HERMES_INFERENCE_MODEL: 'security-model',
        API_SERVER_KEY: API_KEY,
      },
      30_000,
    );
    const ids = new TelegramIds(500);
    const tgHeaders = { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': TG_SECRET };
    const res = await post(
      `${dead.url}${TG_PATH}`,
      JSON.stringify(dmUpdate(ids, 'hello dead model').update),
      tgHeaders,
    );
    expect(res.status).toBe(200);
    const answers: string[] = [];
    for (const stream of [false, true]) {
      const api = await fetch(`${dead.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${API_KEY}` },
        body: JSON.stringify({ stream, messages: [{ role: 'user', content: 'hello dead model api' }] }),
      });
      answers.push(`${api.status} ${await api.text()}`);
    }
    await until('the apology on telegram', () => fakes.telegram.sent.length > sentBefore, 30_000);
    expect(await dead.stop()).toBe(0);
    const places: Record<string, string> = {
      'gateway.log': readdirSync(join(deadHome, 'logs'))
        .map((f) => readFileSync(join(deadHome, 'logs', f), 'utf8'))
        .join('\n'),
      'state.db': dumpDatabase(join(deadHome, 'state.db')),
      'telegram messages': fakes.telegram.sent
        .slice(sentBefore)
        .map((m) => m.text)
        .join('\n'),
      'API answers': answers.join('\n'),
      'daemon stderr': dead.stderr(),
    };
    const leaks = findLeaks(places, { ...SECRETS, 'model URL credentials': 'user:pass@' });
    expect(leaks).toEqual([]);
    for (const where of ['telegram messages', 'API answers'] as const) {
      expect(places[where]).toMatch(
        /The model server could not be reached: connection refused(, \d attempts in \d+ s)? \(HERMES_MODEL_UNREACHABLE\)\./,
      );
      // no internal URL either
      expect(places[where]).not.toContain(`127.0.0.1:${port}`);
    }
    // the detail is in the log, the credentials stripped
    expect(places['gateway.log']).toContain(`http://[REDACTED]@127.0.0.1:${port}`);
  }, 60_000);
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// Two `hermes gateway run` instances on one PostgreSQL database, the API platform behind them as a
// load balancer would spread it: two requests of one session (`x-hermes-session`) sent at once, one
// to each instance, run one after the other (the session lease), and the second sees the first's
// exchange although another instance ran it (its cached transcript is read again under the lease).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptToolTurn } from '../fakes/openai-reply.js';
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram-server.js';
import { usePostgres } from '../helpers/postgres.js';
import { tempHome } from '../helpers/run-hermes.js';
import { type RunningGateway, spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { waitFor } from '../helpers/wait-for.js';

const openai = useFakeOpenAI();
const postgres = usePostgres();
const KEY = 'cluster-api-key-0123456789';

const TOKEN = '123456789:AAHfaketokenfaketokenfaketoken1234';
const SECRET = 'cluster-webhook-secret-1';
let tg: FakeTelegram;
beforeAll(async () => {
  tg = await startFakeTelegram({ token: TOKEN });
});
afterAll(async () => {
  await tg.close();
});

async function instance(url: string, id: string, config = ''): Promise<RunningGateway> {
  const home = tempHome();
  writeFileSync(join(home, 'config.yaml'), `state:\n  backend: postgres\n${config}`);
  return spawnGateway(
    {
      HERMES_HOME: home,
      OPENAI_BASE_URL: openai.server.url,
      HERMES_INFERENCE_MODEL: 'test-model',
      HERMES_DATABASE_URL: url,
      HERMES_INSTANCE_ID: id,
      API_SERVER_KEY: KEY,
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_API_ROOT: tg.apiRoot,
      TELEGRAM_ALLOWED_USERS: '42',
    },
    30_000,
  );
}

async function ask(gw: RunningGateway, text: string): Promise<string> {
  const res = await fetch(`${gw.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}`, 'x-hermes-session': 'shared-1' },
    body: JSON.stringify({ model: 'hermes', messages: [{ role: 'user', content: text }] }),
  });
  const body = (await res.json()) as { choices?: { message: { content: string } }[] };
  return body.choices?.[0]?.message.content ?? `HTTP ${res.status}`;
}

/** Advisory locks asked for and not yet granted in the database at `url` (a session lease being waited on). */
async function waitingAdvisoryLocks(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const res = await client.query<{ n: string }>(
      "SELECT count(*)::text AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted" +
        ' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())',
    );
    return Number(res.rows[0]?.n);
  } finally {
    await client.end();
  }
}

describe('one run per session across two instances', () => {
  it('runs two requests of one session one after the other, the second with the first in its history', async () => {
    const url = await postgres.server.newDatabase('lease');
    // queue: the second waits for the first (the default, interrupt, is the next describe's)
    const queue = 'display:\n  busy_input_mode: queue\n';
    const [a, b] = await Promise.all([instance(url, 'gw-a', queue), instance(url, 'gw-b', queue)]);
    const spans: { text: string; start: number; end: number }[] = [];
    let releaseFirst = (): void => undefined;
    const firstHeld = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    openai.server.respond(async (request) => {
      const messages = (request.body as { messages: { role: string; content: string }[] }).messages;
      const last = messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
      const span = { text: last, start: Date.now(), end: 0 };
      spans.push(span);
      // the first answers only once the second waits on the session lease: the two overlap however slow the machine
      if (spans.length === 1) await firstHeld;
      span.end = Date.now();
      const seen = messages.filter((m) => m.role !== 'system').map((m) => m.content);
      return { text: `${last} after [${seen.slice(0, -1).join(' | ')}]` };
    });
    try {
      const first = ask(a, 'one');
      await waitFor(() => spans.length > 0, { what: 'the first at its model call' });
      const second = ask(b, 'two');
      await waitFor(async () => (await waitingAdvisoryLocks(url)) > 0, {
        what: "gw-b waiting on the first's session lease",
      });
      releaseFirst();
      const [answerOne, answerTwo] = await Promise.all([first, second]);
      expect(answerOne).toBe('one after []');
      expect(answerTwo).toBe('two after [one | one after []]');
      expect(spans).toHaveLength(2);
      expect(spans[1]?.start).toBeGreaterThanOrEqual(spans[0]?.end ?? Infinity);
    } finally {
      openai.server.respond(undefined);
      expect(await Promise.all([a.stop(), b.stop()])).toEqual([0, 0]);
    }
  });
});

/** Telegram by webhook behind a load balancer: each update may reach either instance. */
const WEBHOOK = `gateway:\n  platforms:\n    telegram:\n      mode: webhook\n      webhook_secret: ${SECRET}\n`;

async function post(gw: RunningGateway, text: string): Promise<number> {
  const res = await fetch(`${gw.url}/telegram/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': SECRET },
    body: JSON.stringify(tg.webhookUpdate({ chatId: 42, userId: 42, text })),
  });
  return res.status;
}

const modelCalls = () => openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'));

describe('/stop and the interrupt busy mode across two instances (Telegram webhook)', () => {
  it('/stop sent to one instance stops the run on the other', async () => {
    tg.reset();
    const url = await postgres.server.newDatabase('stop');
    const [a, b] = await Promise.all([instance(url, 'gw-a', WEBHOOK), instance(url, 'gw-b', WEBHOOK)]);
    try {
      const before = modelCalls().length;
      openai.server.script({ text: 'the long answer', delayMs: 8_000 });
      expect(await post(a, 'think for a long time')).toBe(200);
      await waitFor(() => modelCalls().length > before);
      expect(await post(b, '/stop')).toBe(200);
      await waitFor(() => tg.sent.some((m) => m.text === 'Stopped.'));
      // the run's model request was cut: its answer can never come
      await waitFor(() => modelCalls().at(-1)?.closedUnanswered, { what: 'the model request aborted' });
      expect(tg.sent.map((m) => m.text)).not.toContain('the long answer');
    } finally {
      expect(await Promise.all([a.stop(), b.stop()])).toEqual([0, 0]);
    }
  });

  it('a message to one instance interrupts the run of its session on the other (busy mode interrupt)', async () => {
    tg.reset();
    const url = await postgres.server.newDatabase('interrupt');
    const config = `${WEBHOOK}display:\n  busy_input_mode: interrupt\n`;
    const [a, b] = await Promise.all([instance(url, 'gw-a', config), instance(url, 'gw-b', config)]);
    try {
      const before = modelCalls().length;
      openai.server.script({ text: 'stale answer', delayMs: 8_000 }, { text: 'fresh answer' });
      expect(await post(a, 'first question')).toBe(200);
      await waitFor(() => modelCalls().length > before);
      const started = Date.now();
      expect(await post(b, 'never mind, second question')).toBe(200);
      await waitFor(() => tg.sent.some((m) => m.text === 'fresh answer'));
      expect(Date.now() - started).toBeLessThan(6_000); // not after the 8 s the first run would take
      expect(tg.sent.map((m) => m.text)).not.toContain('stale answer');
    } finally {
      expect(await Promise.all([a.stop(), b.stop()])).toEqual([0, 0]);
    }
  });

  it('/sethome on one instance is the home channel of every instance at once', async () => {
    tg.reset();
    const url = await postgres.server.newDatabase('sethome');
    const [a, b] = await Promise.all([instance(url, 'gw-a', WEBHOOK), instance(url, 'gw-b', WEBHOOK)]);
    try {
      expect(await post(a, '/sethome')).toBe(200);
      await waitFor(() => tg.sent.some((m) => m.text === 'This chat is now the telegram home channel.'));
      // on the other instance, send_message to "telegram" (the home channel) now has somewhere to go
      openai.server.script(
        ...scriptToolTurn('send_message', { action: 'send', target: 'telegram', message: 'hello home' }, 'done'),
      );
      expect(await post(b, 'tell the home channel hello')).toBe(200);
      await waitFor(() => tg.sent.some((m) => m.text === 'done'));
      expect(tg.sent.filter((m) => m.text === 'hello home').map((m) => m.chat_id)).toEqual([42]);
    } finally {
      expect(await Promise.all([a.stop(), b.stop()])).toEqual([0, 0]);
    }
  });
});

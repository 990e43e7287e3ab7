// `hermes gateway run` with state.backend postgres: one instance is a cluster of one. A Telegram
// DM is answered with its transcript stored in PostgreSQL, /health shows the cluster (this
// instance holding telegram), /metrics label every series with the instance; and a home moved with
// `hermes state copy` goes on with each chat's history.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram-server.js';
import { usePostgres } from '../helpers/postgres.js';
import { runHermes, tempHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { waitFor } from '../helpers/wait-for.js';

const TOKEN = '123456789:AAHfaketokenfaketokenfaketoken1234';
const openai = useFakeOpenAI();
const postgres = usePostgres();
let tg: FakeTelegram;
beforeAll(async () => {
  tg = await startFakeTelegram({ token: TOKEN, longPollCapMs: 200 });
});
afterAll(async () => {
  await tg.close();
});
beforeEach(() => tg.reset());

function env(home: string, url: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    HERMES_HOME: home,
    OPENAI_BASE_URL: openai.server.url,
    HERMES_INFERENCE_MODEL: 'test-model',
    TELEGRAM_BOT_TOKEN: TOKEN,
    TELEGRAM_API_ROOT: tg.apiRoot,
    TELEGRAM_ALLOWED_USERS: '42',
    HERMES_DATABASE_URL: url,
    ...extra,
  };
}

async function rows<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

interface Health {
  status: string;
  platforms: Record<string, { state: string }>;
  cluster?: { instance: string; members: { instance: string; platforms: string[] }[]; holders: Record<string, string> };
}

describe('gateway run on PostgreSQL', () => {
  it('answers a DM, stores it in PostgreSQL, and shows the cluster in /health and /metrics', async () => {
    const url = await postgres.server.newDatabase('gw');
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), 'state:\n  backend: postgres\n');
    const gw = await spawnGateway(env(home, url, { HERMES_INSTANCE_ID: 'gw-one' }), 30_000);
    try {
      await waitFor(() => tg.pendingPolls() > 0);
      openai.server.script({ text: 'stored in postgres' });
      tg.pushMessage({ chatId: 42, userId: 42, text: 'hello pg' });
      await waitFor(() => tg.sent.length > 0);
      expect(tg.sent[0]?.text).toBe('stored in postgres');
      const health = (await (await fetch(`${gw.url}/health`)).json()) as Health;
      expect(health.platforms.telegram?.state).toBe('connected');
      expect(health.cluster?.instance).toBe('gw-one');
      // the cron scheduler runs on one instance too, under its own lease
      expect(health.cluster?.holders).toEqual({ telegram: 'gw-one', cron: 'gw-one' });
      expect(health.cluster?.members.map((m) => [m.instance, m.platforms])).toEqual([['gw-one', ['cron', 'telegram']]]);
      const status = await runHermes(['gateway', 'status', '--json'], { env: { HERMES_HOME: home } });
      expect(JSON.parse(status.stdout).cluster).toMatchObject({
        instance: 'gw-one',
        holders: { telegram: 'gw-one', cron: 'gw-one' },
      });
      const line = await runHermes(['gateway', 'status'], { env: { HERMES_HOME: home } });
      expect(line.stdout).toContain('cluster: instance gw-one of 1 (');
      const metrics = await (await fetch(`${gw.url}/metrics`)).text();
      expect(metrics).toMatch(/hermes_messages_received_total\{[^}]*instance="gw-one"/);
      const messages = await rows<{ role: string; content: string }>(
        url,
        `SELECT m.role, m.content FROM messages m JOIN sessions s ON s.id = m.session_id
         WHERE s.session_key LIKE 'telegram:%' ORDER BY m.seq`,
      );
      expect(messages.map((m) => [m.role, m.content])).toEqual([
        ['user', 'hello pg'],
        ['assistant', 'stored in postgres'],
      ]);
      const inbox = await rows<{ owner: string; status: string }>(url, `SELECT owner, status FROM inbox`);
      expect(inbox).toEqual([{ owner: 'gw-one', status: 'done' }]);
    } finally {
      expect(await gw.stop()).toBe(0);
    }
    const left = await rows(url, 'SELECT * FROM hermes_cluster_members');
    expect(left).toEqual([]); // a graceful stop leaves the cluster
  });

  it('a home copied with hermes state copy goes on with its history', async () => {
    const url = await postgres.server.newDatabase('copy');
    const home = tempHome();
    // a first chat on state.db
    const first = await spawnGateway(env(home, url));
    try {
      await waitFor(() => tg.pendingPolls() > 0);
      openai.server.script({ text: 'first answer' });
      tg.pushMessage({ chatId: 42, userId: 42, text: 'remember the word albatross' });
      await waitFor(() => tg.sent.length > 0);
    } finally {
      expect(await first.stop()).toBe(0);
    }
    const copy = await runHermes(['state', 'copy', '--to', url], { env: { HERMES_HOME: home } });
    expect(copy.code, copy.stderr).toBe(0);
    writeFileSync(join(home, 'config.yaml'), 'state:\n  backend: postgres\n');
    const sentBefore = tg.sent.length; // not reset: update ids go on, as Telegram's do
    const second = await spawnGateway(env(home, url));
    try {
      await waitFor(() => tg.pendingPolls() > 0);
      openai.server.script({ text: 'albatross it was' });
      const before = openai.server.requests.length;
      tg.pushMessage({ chatId: 42, userId: 42, text: 'which word?' });
      await waitFor(() => tg.sent.length > sentBefore).catch((err: unknown) => {
        throw new Error(`${String(err)}\n${second.stderr()}`);
      });
      const request = openai.server.requests.slice(before).find((r) => r.path.endsWith('/chat/completions'));
      const texts = JSON.stringify(request?.body);
      expect(texts).toContain('remember the word albatross');
      expect(texts).toContain('first answer');
      expect(tg.sent[sentBefore]?.text).toBe('albatross it was');
    } finally {
      expect(await second.stop()).toBe(0);
    }
  });
});

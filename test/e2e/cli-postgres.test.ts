// Every CLI command on state.backend postgres (HERMES_DATABASE_URL): `hermes -z` and `hermes chat`
// store their sessions, transcripts and memory snapshots in PostgreSQL and search it with
// session_search; pairing, cron and state prune read and write it; nothing creates state.db. A
// missing HERMES_DATABASE_URL stops a command naming the variable. The server is a real one on
// 127.0.0.1 (test/helpers/postgres.ts); rows are read back with `pg` directly.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChatMessage } from '@hermes/protocol';
import { openPgStore } from '@hermes/store';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresUnavailableReason, usePostgres } from '../helpers/postgres.js';
import { runHermes, tempHome } from '../helpers/run-hermes.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';

const openai = useFakeOpenAI();

/** A home configured for PostgreSQL; its .env holds `url` when given. */
function pgHome(url?: string): string {
  const home = tempHome();
  writeFileSync(join(home, 'config.yaml'), 'state:\n  backend: postgres\n');
  if (url !== undefined) writeFileSync(join(home, '.env'), `HERMES_DATABASE_URL=${url}\n`, { mode: 0o600 });
  return home;
}

const envFor = (home: string): Record<string, string> => ({
  HERMES_HOME: home,
  OPENAI_BASE_URL: openai.server.url,
  HERMES_INFERENCE_MODEL: 'test-model',
});

/** Runs one query on the database at `url` and returns its rows. */
async function query<T extends object>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

describe('state.backend postgres without HERMES_DATABASE_URL', () => {
  it('-z, pairing and cron stop naming the variable (exit 2); nothing is written to state.db', async () => {
    const home = pgHome();
    for (const args of [
      ['-z', 'hello'],
      ['pairing', 'list'],
      ['cron', 'list'],
      ['state', 'prune', '--days', '30'],
    ]) {
      const run = await runHermes(args, { env: envFor(home) });
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(/state\.backend postgres needs HERMES_DATABASE_URL/);
    }
    expect(openai.server.requests).toHaveLength(0);
    expect(existsSync(join(home, 'state.db'))).toBe(false);
  });
});

describe.skipIf(postgresUnavailableReason() !== null)('every command on PostgreSQL', () => {
  const server = usePostgres();

  it('hermes -z stores the session, transcript and memory snapshot in PostgreSQL; session_search reads it', async () => {
    const url = await server.server.newDatabase('oneshot');
    const home = pgHome(url);
    openai.server.script({ text: 'Noted: marmalade.' });
    const first = await runHermes(['-z', 'the secret word is marmalade'], { env: envFor(home), timeoutMs: 30_000 });
    expect(first.stderr).toBe('');
    expect(first.stdout).toBe('Noted: marmalade.\n');
    expect(first.code).toBe(0);

    const sessions = await query<{ id: string; session_key: string; end_reason: string | null }>(
      url,
      'SELECT id, session_key, end_reason FROM sessions ORDER BY ord',
    );
    expect(sessions).toEqual([{ id: expect.any(String), session_key: 'cli:oneshot', end_reason: 'completed' }]);
    const id = sessions[0]?.id;
    const messages = await query<{ role: string; content: string }>(
      url,
      'SELECT role, content FROM messages WHERE session_id = $1 ORDER BY seq',
      [id],
    );
    expect(messages).toEqual([
      { role: 'user', content: 'the secret word is marmalade' },
      { role: 'assistant', content: 'Noted: marmalade.' },
    ]);
    // the session's memory block was taken once and kept with it
    expect(await query(url, 'SELECT provider FROM memory_snapshots WHERE session_id = $1', [id])).toEqual([
      { provider: 'builtin' },
    ]);

    // a second one-shot searches the first one's transcript in PostgreSQL
    openai.server.script(
      { toolCalls: [{ name: 'session_search', arguments: { query: 'marmalade' } }] },
      { text: 'found it' },
    );
    const second = await runHermes(['-z', 'what was the secret word?'], { env: envFor(home), timeoutMs: 30_000 });
    expect(second.code).toBe(0);
    const chats = openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'));
    const toolMessage = (chats.at(-1)?.body as { messages: ChatMessage[] }).messages.find((m) => m.role === 'tool');
    const found = JSON.parse(String(toolMessage?.content)) as { success: boolean; results: { session_id: string }[] };
    expect(found.success).toBe(true);
    expect(found.results.map((r) => r.session_id)).toContain(id);
    expect(await query(url, 'SELECT COUNT(*)::int AS n FROM sessions')).toEqual([{ n: 2 }]);
    expect(existsSync(join(home, 'state.db'))).toBe(false);
  });

  it('hermes chat stores each session and its end (/new, exit) in PostgreSQL', async () => {
    const url = await server.server.newDatabase('chat');
    const home = pgHome(url);
    openai.server.script({ text: 'one' }, { text: 'two' });
    const run = await runHermes(['chat'], {
      input: 'first\n/new\nsecond\n/exit\n',
      env: envFor(home),
      timeoutMs: 30_000,
    });
    expect(run.code).toBe(0);
    const rows = await query<{ session_key: string; end_reason: string; n: number }>(
      url,
      `SELECT s.session_key, s.end_reason, COUNT(m.id)::int AS n
         FROM sessions s LEFT JOIN messages m ON m.session_id = s.id GROUP BY s.id ORDER BY s.ord`,
    );
    expect(rows).toEqual([
      { session_key: 'cli:chat', end_reason: 'reset', n: 2 },
      { session_key: 'cli:chat', end_reason: 'exit', n: 2 },
    ]);
    expect(existsSync(join(home, 'state.db'))).toBe(false);
  });

  it('hermes pairing approve approves a pending request written into PostgreSQL; list and revoke read it', async () => {
    const url = await server.server.newDatabase('pairing');
    const home = pgHome(url);
    const store = await openPgStore(url, { maxConnections: 1 });
    let code: string;
    try {
      const asked = await store.pairing.request('telegram', '4242', 'ann');
      if (!('code' in asked)) throw new Error('no code issued');
      code = asked.code;
    } finally {
      await store.close();
    }
    const listed = await runHermes(['pairing', 'list', '--json'], { env: { HERMES_HOME: home } });
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.stdout) as { pending: { code: string }[] }).pending.map((p) => p.code)).toEqual([code]);

    const approved = await runHermes(['pairing', 'approve', 'telegram', code], { env: { HERMES_HOME: home } });
    expect(approved.stderr).toBe('');
    expect(approved.stdout).toBe('Approved ann on telegram\n');
    expect(approved.code).toBe(0);
    expect(await query(url, 'SELECT platform, user_id FROM approved_users')).toEqual([
      { platform: 'telegram', user_id: '4242' },
    ]);

    const revoked = await runHermes(['pairing', 'revoke', 'telegram', '4242'], { env: { HERMES_HOME: home } });
    expect(revoked.code).toBe(0);
    expect(await query(url, 'SELECT user_id FROM approved_users')).toEqual([]);
    expect(existsSync(join(home, 'state.db'))).toBe(false);
  });

  it('hermes cron add/pause/list, state prune and doctor run on PostgreSQL; state vacuum says it is SQLite-only', async () => {
    const url = await server.server.newDatabase('cron');
    const home = pgHome(url);
    const env = { HERMES_HOME: home };
    const added = await runHermes(['cron', 'add', 'every 1h', 'check the disk', '--deliver', 'none', '--json'], {
      env,
    });
    expect(added.code).toBe(0);
    const job = JSON.parse(added.stdout) as { id: string; state: string };
    expect(job.state).toBe('active');
    expect((await runHermes(['cron', 'pause', job.id], { env })).code).toBe(0);
    expect(await query(url, 'SELECT id, prompt, state FROM cron_jobs')).toEqual([
      { id: job.id, prompt: 'check the disk', state: 'paused' },
    ]);
    const list = await runHermes(['cron', 'list', '--json'], { env });
    expect((JSON.parse(list.stdout) as { id: string; state: string }[]).map((j) => [j.id, j.state])).toEqual([
      [job.id, 'paused'],
    ]);

    const pruned = await runHermes(['state', 'prune', '--days', '30'], { env });
    expect(pruned.code).toBe(0);
    expect(pruned.stdout).toMatch(/^state prune \(idle > 30 days\): deleted 0 sessions \(0 messages\)/);
    // doctor's state check opens the configured database (its URL masked)
    const doctor = await runHermes(['doctor', '--json'], { env: envFor(home), timeoutMs: 30_000 });
    const checks = (JSON.parse(doctor.stdout) as { checks: { name: string; status: string; detail: string }[] }).checks;
    expect(checks.find((c) => c.name === 'state')).toEqual({
      name: 'state',
      status: 'ok',
      detail: expect.stringMatching(/^postgres:\/\/hermes:\*\*\*@127\.0\.0\.1:\d+\/cron_\w+ \(schema v\d+\)$/),
    });
    const vacuum = await runHermes(['state', 'vacuum'], { env });
    expect(vacuum.code).toBe(2);
    expect(vacuum.stderr).toMatch(
      /state vacuum compacts HERMES_HOME\/state\.db \(SQLite\); state\.backend is postgres/,
    );
    expect(existsSync(join(home, 'state.db'))).toBe(false);
  });

  it('a database it cannot reach stops -z with the URL masked (exit 1), before any model request', async () => {
    const url = await server.server.newDatabase('denied');
    const wrong = url.replace(server.server.password, 'wrong-secret-pw');
    const home = pgHome(wrong);
    const run = await runHermes(['-z', 'hello'], { env: envFor(home), timeoutMs: 30_000 });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/password authentication failed/);
    expect(run.stderr).not.toContain('wrong-secret-pw');
    expect(openai.server.requests).toHaveLength(0);
  });
});

// `hermes state copy --to postgres://…` and `hermes state migrate` against a real PostgreSQL server
// (test/helpers/postgres.ts): a home with sessions, transcripts, pairing, inbox and outbox rows is
// copied, read back equal through the PostgreSQL store, and goes on from where it was.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChatMessage } from '@hermes/protocol';
import { asyncSqliteStore, openPgStore, openStore, type PgStore } from '@hermes/store';
import { describe, expect, it } from 'vitest';
import { postgresUnavailableReason, usePostgres } from '../helpers/postgres.js';
import { runHermes, tempHome } from '../helpers/run-hermes.js';

const toolTurn: ChatMessage[] = [
  { role: 'user', content: 'what is 6*7?' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'c1', type: 'function', function: { name: 'calc', arguments: '{"e":"6*7"}' } }],
  },
  { role: 'tool', content: '42', tool_call_id: 'c1', name: 'calc' },
  { role: 'assistant', content: 'It is 42.' },
];

/** A home whose state.db holds a bit of everything the copy must carry. */
function seedHome(): { home: string; sessionIds: string[]; inboxId: number } {
  const home = tempHome();
  const store = openStore(join(home, 'state.db'), { backgroundCheckpoints: false });
  try {
    const a = store.sessions.create({ key: 'telegram:dm:7', platform: 'telegram', title: 'maths' });
    store.transcripts.append(a.id, toolTurn);
    const b = store.sessions.create({ key: 'discord:dm:9', platform: 'discord' });
    store.transcripts.append(b.id, [{ role: 'user', content: 'salut ✓' }]);
    store.sessions.end(b.id, 'reset');
    const c = store.sessions.create({ key: 'discord:dm:9', platform: 'discord' });
    store.sessionModels.set(c.id, 'openrouter', 'small');
    store.memorySnapshots.put(a.id, 'builtin', 'likes maths');
    store.contextSummaries.save(a.id, { headCount: 1, keepFrom: 2, summary: 'asked for a product' });
    const accepted = store.inbox.accept('telegram', '1001', { text: 'what is 6*7?' }, { state: { offset: '1002' } });
    if (!accepted.accepted) throw new Error('not accepted');
    store.inbox.mark(accepted.id, 'done');
    store.outbox.enqueue([
      { inboxId: accepted.id, platform: 'telegram', chatId: '7', chunkIndex: 0, text: 'It is 42.' },
      { inboxId: accepted.id, platform: 'telegram', chatId: '7', chunkIndex: 1, text: '/tmp/x.png', kind: 'media' },
    ]);
    const [sent] = store.outbox.forInbox(accepted.id);
    if (sent) store.outbox.markSent(sent.id, 'tg-555');
    store.pairing.request('slack', 'U1', 'ann');
    const bob = store.pairing.request('slack', 'U2', 'bob');
    if ('code' in bob) store.pairing.approve('slack', bob.code);
    store.pairing.approve('slack', 'WRONGONE');
    store.cronJobs.add({
      name: 'daily',
      schedule: '0 8 * * *',
      kind: 'cron',
      expr: '0 8 * * *',
      prompt: 'news',
      toolsets: null,
      deliver: 'home',
      owner: 'cli',
      timezone: 'UTC',
      nextRunAt: Date.now() + 3_600_000,
    });
    return { home, sessionIds: [a.id, b.id, c.id], inboxId: accepted.id };
  } finally {
    store.close();
  }
}

describe.skipIf(postgresUnavailableReason() !== null)('hermes state copy and state migrate (PostgreSQL)', () => {
  const pg = usePostgres();

  it('copies a home to PostgreSQL: every row read back equal, counts printed, the password never shown', async () => {
    const { home, sessionIds, inboxId } = seedHome();
    const url = await pg.server.newDatabase('copy');
    const run = await runHermes(['state', 'copy', '--to', url], { env: { HERMES_HOME: home }, timeoutMs: 30_000 });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/-> postgres:\/\/hermes:\*\*\*@127\.0\.0\.1:\d+\/copy_/);
    expect(run.stdout).toMatch(/^ {2}sessions +3 +3$/m);
    expect(run.stdout).toMatch(/^ {2}messages +5 +5$/m);
    expect(run.stdout).toMatch(/^ {2}outbox +2 +2$/m);
    expect(run.stdout).toMatch(/^ {2}cron_jobs +1 +1$/m);
    expect(run.stdout).toMatch(/every count matches/);
    expect(run.stdout + run.stderr).not.toContain(pg.server.password);

    const sqlite = asyncSqliteStore(openStore(join(home, 'state.db'), { backgroundCheckpoints: false }));
    const target: PgStore = await openPgStore(url);
    try {
      expect(await target.sessions.list({ limit: 10 })).toEqual(await sqlite.sessions.list({ limit: 10 }));
      for (const id of sessionIds) {
        expect(await target.transcripts.list(id)).toEqual(await sqlite.transcripts.list(id));
        expect(await target.sessionModels.get(id)).toEqual(await sqlite.sessionModels.get(id));
        expect(await target.memorySnapshots.get(id)).toEqual(await sqlite.memorySnapshots.get(id));
        expect(await target.contextSummaries.latest(id)).toEqual(await sqlite.contextSummaries.latest(id));
      }
      expect((await target.sessions.activeByKey('discord:dm:9'))?.id).toBe(sessionIds[2]);
      expect(await target.inbox.get(inboxId)).toEqual(await sqlite.inbox.get(inboxId));
      expect(await target.outbox.forInbox(inboxId)).toEqual(await sqlite.outbox.forInbox(inboxId));
      expect(await target.platformState.get('telegram', 'offset')).toBe('1002');
      expect(await target.pairing.list()).toEqual(await sqlite.pairing.list());
      expect(await target.pairing.isApproved('slack', 'U2')).toBe(true);
      expect(await target.sessionSearch.search('product', { limit: 5 })).toEqual([]);
      expect((await target.sessionSearch.search('42', { limit: 5 })).map((h) => h.sessionId)).toEqual([sessionIds[0]]);

      // the chats go on where they were: the next seq, fresh ids past the copied ones, dedupe kept
      const first = sessionIds[0] ?? '';
      expect(await target.transcripts.append(first, [{ role: 'user', content: 'and 7*7?' }])).toBe(5);
      expect(await target.inbox.accept('telegram', '1001', { text: 'again' })).toEqual({
        accepted: false,
        reason: 'duplicate',
      });
      const next = await target.inbox.accept('telegram', '1003', { text: 'new' });
      expect(next.accepted && next.id > inboxId).toBe(true);
      const [queued] = await target.outbox.enqueue([{ platform: 'telegram', chatId: '7', chunkIndex: 0, text: 'hi' }]);
      expect(queued?.existed).toBe(false);
    } finally {
      await sqlite.close();
      await target.close();
    }
  });

  it('refuses a non-empty target (changing nothing) unless --force, which replaces its rows', async () => {
    const { home } = seedHome();
    const url = await pg.server.newDatabase('force');
    const env = { HERMES_HOME: home, HERMES_DATABASE_URL: url };
    expect((await runHermes(['state', 'copy'], { env, timeoutMs: 30_000 })).code).toBe(0);
    const target = await openPgStore(url);
    try {
      await target.sessions.create({ key: 'extra', platform: 'cli', id: 'sess_extra' });
      const refused = await runHermes(['state', 'copy'], { env, timeoutMs: 30_000 });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/the target database is not empty: sessions \(4\), messages \(5\).*--force/);
      expect(await target.sessions.get('sess_extra')).toBeDefined();
      const forced = await runHermes(['state', 'copy', '--force'], { env, timeoutMs: 30_000 });
      expect(forced.code).toBe(0);
      expect(forced.stdout).toMatch(/its earlier rows replaced/);
      expect(await target.sessions.get('sess_extra')).toBeUndefined();
      expect(await target.sessions.list({ limit: 10 })).toHaveLength(3);
    } finally {
      await target.close();
    }
  });

  it('state migrate brings the configured PostgreSQL database to the newest schema; errors are clear and masked', async () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), 'state:\n  backend: postgres\n');
    const missing = await runHermes(['state', 'migrate'], { env: { HERMES_HOME: home } });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/state\.backend postgres needs HERMES_DATABASE_URL/);

    const url = await pg.server.newDatabase('migrate');
    writeFileSync(join(home, '.env'), `HERMES_DATABASE_URL=${url}\n`, { mode: 0o600 });
    const ok = await runHermes(['state', 'migrate'], { env: { HERMES_HOME: home }, timeoutMs: 30_000 });
    expect(ok.stderr).toBe('');
    expect(ok.stdout).toMatch(
      /^state migrate: postgres:\/\/hermes:\*\*\*@127\.0\.0\.1:\d+\/migrate_\w+ at schema version (\d+) of \1$/m,
    );

    const wrong = url.replace(pg.server.password, 'wrong-secret-pw');
    const denied = await runHermes(['state', 'copy', '--to', wrong], { env: { HERMES_HOME: seedHome().home } });
    expect(denied.code).toBe(1);
    expect(denied.stderr).toMatch(/password authentication failed/);
    expect(denied.stderr).not.toContain('wrong-secret-pw');

    const notPg = await runHermes(['state', 'copy', '--to', 'mysql://u:pw@h/db'], { env: { HERMES_HOME: home } });
    expect(notPg.code).toBe(2);
    expect(notPg.stderr).toMatch(/--to must be a postgres:\/\/ or postgresql:\/\/ URL/);
    expect(notPg.stderr).not.toContain(':pw@');
  });

  it('state migrate on the default backend brings state.db up to date', async () => {
    const home = tempHome();
    const run = await runHermes(['state', 'migrate'], { env: { HERMES_HOME: home } });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^state migrate: .*state\.db at schema version \d+$/m);
  });
});

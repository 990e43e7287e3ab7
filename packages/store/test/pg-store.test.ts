// The PostgreSQL backend's own behaviour (the shared scenarios are in contract/): migrations for
// several instances at once, a newer schema refused, masked URLs, and copying a state.db.
import { join } from 'node:path';
import { COPY_TABLES, copySqliteToPg, MIGRATIONS, maskDatabaseUrl, openPgStore, openStore } from '@hermes/store';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresUnavailableReason, usePostgres } from '../../../test/helpers/postgres.js';
import { useTempDirs } from './temp-dir.js';

describe('maskDatabaseUrl', () => {
  it('hides the password (in the userinfo and in query parameters) and keeps the rest', () => {
    expect(maskDatabaseUrl('postgres://hermes:s3cr%40t@db.example:5432/state?sslmode=require')).toBe(
      'postgres://hermes:***@db.example:5432/state?sslmode=require',
    );
    expect(maskDatabaseUrl('postgresql://db/state?password=hunter2&user=x')).toBe(
      'postgresql://db/state?password=***&user=x',
    );
    expect(maskDatabaseUrl('postgres://db/state')).toBe('postgres://db/state');
    expect(maskDatabaseUrl('postgres://u:p@[::1')).toBe('postgres://***');
  });
});

describe('every migration', () => {
  it('carries its PostgreSQL SQL', () => {
    for (const m of MIGRATIONS) expect(m.pg.trim(), `migration ${m.version} ${m.name}`).not.toBe('');
  });
});

describe.skipIf(postgresUnavailableReason() !== null)('the PostgreSQL store', () => {
  const server = usePostgres();
  const tempDir = useTempDirs();

  it('applies each migration once when several instances open a fresh database at the same time', async () => {
    const url = await server.server.newDatabase('migrate');
    const stores = await Promise.all([1, 2, 3].map(() => openPgStore(url, { maxConnections: 2 })));
    try {
      for (const store of stores) expect(await store.schemaVersion()).toBe(MIGRATIONS.length);
      const rows = await stores[0]?.pool.query<{ version: number; name: string }>(
        'SELECT version, name FROM schema_migrations ORDER BY version',
      );
      expect(rows?.rows).toEqual(MIGRATIONS.map((m) => ({ version: m.version, name: m.name })));
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  it('refuses a database migrated by a newer Hermes, naming both versions and never the password', async () => {
    const url = await server.server.newDatabase('newer');
    const first = await openPgStore(url);
    await first.pool.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, 'future', 0)");
    await first.close();
    const error = await openPgStore(url).catch((e: unknown) => e);
    expect(String(error)).toMatch(/schema version 99, but this Hermes only knows versions up to \d+/);
    expect(String(error)).not.toContain(server.server.password);
    expect(String(error)).toContain('hermes:***@127.0.0.1');
  });

  it('says which database it cannot reach, with the password masked', async () => {
    const url = server.server.url.replace(server.server.password, 'not-the-password');
    const error = await openPgStore(url).catch((e: unknown) => e);
    expect(String(error)).toMatch(/PostgreSQL postgres:\/\/hermes:\*\*\*@127\.0\.0\.1:\d+\/postgres: cannot open/);
    expect(String(error)).not.toContain('not-the-password');
  });

  it('two instances on one database: one accept per key, an approval and platform state seen by both at once', async () => {
    const url = await server.server.newDatabase('two');
    const [a, b] = await Promise.all([openPgStore(url), openPgStore(url)]);
    if (!a || !b) throw new Error('unreachable');
    try {
      const accepts = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).inbox.accept('slack', 'Ev42', { n: i })),
      );
      expect(accepts.filter((r) => r.accepted)).toHaveLength(1);
      const request = await a.pairing.request('telegram', 'u7', 'ann');
      if (!('code' in request)) throw new Error('refused');
      expect(await b.pairing.approve('telegram', request.code)).toMatchObject({ ok: true, userId: 'u7' });
      expect(await a.pairing.isApproved('telegram', 'u7')).toBe(true);
      expect(await a.pairing.firstApproved()).toMatchObject({ platform: 'telegram', userId: 'u7', userName: 'ann' });
      await b.platformState.set('telegram', 'home_channel', '42');
      expect(await a.platformState.get('telegram', 'home_channel')).toBe('42');
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('copies every table of state.db: the copy list names every table but the index and the bookkeeping', () => {
    const sqlite = openStore(join(tempDir(), 'state.db'), { backgroundCheckpoints: false });
    try {
      const tables = sqlite.db
        .prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .pluck()
        .all()
        .filter((name) => !/^(schema_migrations|messages_fts.*|sqlite_.*)$/.test(name));
      expect(COPY_TABLES.map((t) => t.name).sort()).toEqual(tables);
    } finally {
      sqlite.close();
    }
  });

  it('copies nothing when one row is refused, naming the table; the target stays empty', async () => {
    const sqlite = openStore(join(tempDir(), 'state.db'), { backgroundCheckpoints: false });
    const url = await server.server.newDatabase('refused');
    const target = await openPgStore(url);
    try {
      sqlite.sessions.create({ key: 'k', platform: 'cli', id: 'sess_ok' });
      // SQLite keeps text in an INTEGER column; PostgreSQL's BIGINT refuses it
      sqlite.db.prepare("INSERT INTO pairing_failures (platform, at) VALUES ('telegram', 'yesterday')").run();
      await expect(copySqliteToPg(sqlite.db, target.pool)).rejects.toThrow(/copying table pairing_failures .*bigint/);
      const counts = await target.pool.query<{ n: number }>('SELECT COUNT(*)::int AS n FROM sessions');
      expect(counts.rows[0]?.n).toBe(0);
      // state.db's read transaction is over: it can be written again
      sqlite.sessions.create({ key: 'k2', platform: 'cli' });
    } finally {
      sqlite.close();
      await target.close();
    }
  });

  it('copies a table larger than one batch, keeps its ids and numbers new rows after them', async () => {
    const sqlite = openStore(join(tempDir(), 'state.db'), { backgroundCheckpoints: false });
    const url = await server.server.newDatabase('batches');
    const target = await openPgStore(url);
    try {
      const session = sqlite.sessions.create({ key: 'k', platform: 'cli', id: 'sess_big' });
      const many = Array.from({ length: 7_000 }, (_, i) => ({ role: 'user' as const, content: `message ${i}` }));
      sqlite.transcripts.append(session.id, many);
      const result = await copySqliteToPg(sqlite.db, target.pool);
      expect(result.tables.find((t) => t.table === 'messages')).toEqual({
        table: 'messages',
        sqlite: 7_000,
        postgres: 7_000,
      });
      expect(await target.transcripts.list(session.id)).toEqual(sqlite.transcripts.list(session.id));
      expect(await target.transcripts.append(session.id, [{ role: 'user', content: 'next' }])).toBe(7_001);
      const ids = await target.pool.query<{ max: number }>('SELECT MAX(id)::int AS max FROM messages');
      expect(ids.rows[0]?.max).toBe(7_001);
    } finally {
      sqlite.close();
      await target.close();
    }
  });

  it('keeps an idle pooled connection dropped by the server from taking the process down', async () => {
    const url = await server.server.newDatabase('drop');
    const store = await openPgStore(url);
    try {
      await store.sessions.create({ key: 'k', platform: 'cli', id: 'sess_1' });
      const admin = new pg.Client({ connectionString: server.server.url });
      await admin.connect();
      await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
        [new URL(url).pathname.slice(1)],
      );
      await admin.end();
      // the pool replaces the dead client on the next query
      await expect
        .poll(async () => (await store.sessions.get('sess_1').catch(() => undefined))?.id, { timeout: 5000 })
        .toBe('sess_1');
    } finally {
      await store.close();
    }
  });
});

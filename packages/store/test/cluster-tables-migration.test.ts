// Migration 13 brings the cluster's tables into the versioned migrations. A database where earlier
// gateways created them on first use (with rows, and the unused `hermes_session_work`) migrates
// cleanly: the rows stay, the unused table goes. state.db gains nothing.
import { join } from 'node:path';
import { MIGRATIONS, openPgStore, openStore } from '@hermes/store';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresUnavailableReason, usePostgres } from '../../../test/helpers/postgres.js';
import { migratePg } from '../src/pg/pg-migrate.js';
import { useTempDirs } from './temp-dir.js';

/** What the cluster created before migration 13 (packages/gateway/src/cluster/schema.ts, removed). */
const CREATED_ON_FIRST_USE = `
CREATE TABLE IF NOT EXISTS hermes_cluster_members (
  instance_id text PRIMARY KEY, host text NOT NULL, pid integer NOT NULL,
  started_at timestamptz NOT NULL, heartbeat_at timestamptz NOT NULL);
CREATE TABLE IF NOT EXISTS hermes_cluster_platforms (
  platform_key text PRIMARY KEY, instance_id text NOT NULL, backend_pid integer NOT NULL,
  acquired_at timestamptz NOT NULL);
CREATE TABLE IF NOT EXISTS hermes_session_work (
  id bigserial PRIMARY KEY, session_key text NOT NULL, payload jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(), attempts integer NOT NULL DEFAULT 0, last_error text);
`;

const tables = async (pool: pg.Pool) =>
  (
    await pool.query<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_name LIKE 'hermes_%' ORDER BY 1",
    )
  ).rows.map((r) => r.name);

describe('migration 13: the cluster tables', () => {
  const tempDir = useTempDirs();

  it('adds nothing to state.db', () => {
    const store = openStore(join(tempDir(), 'state.db'), { backgroundCheckpoints: false });
    try {
      expect(store.schemaVersion()).toBe(MIGRATIONS.length);
      const names = store.db
        .prepare<[], string>("SELECT name FROM sqlite_master WHERE name LIKE 'hermes_%'")
        .pluck()
        .all();
      expect(names).toEqual([]);
    } finally {
      store.close();
    }
  });

  describe.skipIf(postgresUnavailableReason() !== null)('PostgreSQL', () => {
    const server = usePostgres();

    it('creates them on a fresh database', async () => {
      const store = await openPgStore(await server.server.newDatabase('cluster'));
      try {
        expect(await tables(store.pool)).toEqual(['hermes_cluster_members', 'hermes_cluster_platforms']);
      } finally {
        await store.close();
      }
    });

    it('keeps the rows of tables created on first use and drops the unused work table', async () => {
      const url = await server.server.newDatabase('cluster_old');
      const pool = new pg.Pool({ connectionString: url });
      try {
        await migratePg(pool, MIGRATIONS.slice(0, 12), { now: () => 1, url });
        await pool.query(CREATED_ON_FIRST_USE);
        await pool.query("INSERT INTO hermes_cluster_members VALUES ('gw-1', 'host', 42, now(), now())");
      } finally {
        await pool.end();
      }
      const store = await openPgStore(url);
      try {
        expect(await store.schemaVersion()).toBe(MIGRATIONS.length);
        expect(await tables(store.pool)).toEqual(['hermes_cluster_members', 'hermes_cluster_platforms']);
        const members = await store.pool.query('SELECT instance_id, pid FROM hermes_cluster_members');
        expect(members.rows).toEqual([{ instance_id: 'gw-1', pid: 42 }]);
      } finally {
        await store.close();
      }
    });
  });
});

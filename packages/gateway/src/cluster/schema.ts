// The cluster's tables in PostgreSQL. Created idempotently by whichever instance comes first; the
// DDL runs under a transaction-scoped advisory lock so two instances starting together do not race
// on CREATE TABLE. (Not yet part of the store's versioned migrations: see docs/scaling.md.)
import type pg from 'pg';

export const CLUSTER_SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS hermes_cluster_members (
  instance_id   text PRIMARY KEY,
  host          text NOT NULL,
  pid           integer NOT NULL,
  started_at    timestamptz NOT NULL,
  heartbeat_at  timestamptz NOT NULL
);
CREATE TABLE IF NOT EXISTS hermes_cluster_platforms (
  platform_key  text PRIMARY KEY,
  instance_id   text NOT NULL,
  backend_pid   integer NOT NULL,
  acquired_at   timestamptz NOT NULL
);
CREATE TABLE IF NOT EXISTS hermes_session_work (
  id            bigserial PRIMARY KEY,
  session_key   text NOT NULL,
  payload       jsonb NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  attempts      integer NOT NULL DEFAULT 0,
  last_error    text
);
CREATE INDEX IF NOT EXISTS hermes_session_work_by_session ON hermes_session_work (session_key, id);
`;

/** Creates the cluster tables if they are missing; safe to call from many instances at once. */
export async function ensureClusterSchema(db: pg.Pool | pg.Client): Promise<void> {
  const client = 'totalCount' in db ? await db.connect() : db;
  try {
    await client.query('BEGIN');
    try {
      await client.query("SELECT pg_advisory_xact_lock(hashtextextended('hermes:cluster-schema', 0))");
      await client.query(CLUSTER_SCHEMA_SQL);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
  } finally {
    if ('release' in client && typeof client.release === 'function') client.release();
  }
}

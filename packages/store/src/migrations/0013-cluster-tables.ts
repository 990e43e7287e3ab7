import type { Migration } from '../migration.js';

/**
 * The tables of several gateway instances on one PostgreSQL database (docs/scaling.md): the
 * members with their heartbeat, and which instance holds each connection-holding platform. Before
 * this step the cluster created them itself on first use, so they may exist already (IF NOT
 * EXISTS); `hermes_session_work`, which that code created for a module never used by
 * `gateway run` (since removed), is dropped. state.db has no cluster: nothing on SQLite.
 */
export const clusterTables: Migration = {
  version: 13,
  name: 'cluster tables',
  sql: `
-- the cluster runs on PostgreSQL only
`,
  pg: `
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
DROP TABLE IF EXISTS hermes_session_work;
`,
};

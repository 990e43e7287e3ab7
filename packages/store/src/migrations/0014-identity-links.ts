import type { Migration } from '../migration.js';
import { ddl } from './dialect.js';

/**
 * Users apart (issue 28): which identity (`<platform>:<userId>`) is linked to which owner
 * identity (`/link`, `gateway.identity_links`), the one-time codes of `/link` (10 minutes), which identity
 * each session was opened for (`sessions.user_key`, NULL for sessions stored before this step),
 * and whose memory block a session's snapshot holds (`memory_snapshots.user_key`; a snapshot
 * taken before this step matches no user and is taken again).
 */
export const identityLinks: Migration = {
  version: 14,
  name: 'identity links',
  ...ddl(
    (d) => `
CREATE TABLE identity_links (
  identity TEXT PRIMARY KEY NOT NULL,
  owner TEXT NOT NULL,
  linked_at ${d.int64} NOT NULL
);
CREATE INDEX identity_links_owner ON identity_links (owner);
CREATE TABLE identity_link_codes (
  code TEXT PRIMARY KEY NOT NULL,
  identity TEXT NOT NULL,
  expires_at ${d.int64} NOT NULL
);
ALTER TABLE sessions ADD COLUMN user_key TEXT;
CREATE INDEX sessions_user_key ON sessions (user_key);
ALTER TABLE memory_snapshots ADD COLUMN user_key TEXT;
`,
  ),
};

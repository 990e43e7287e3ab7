import type { Migration } from '../migration.js';

/**
 * Per-user usage counters for budgets and rate limits (access.tiers.*.limits, docs/security.md):
 * one row per identity key and window kind (`minute`: turns in the minute since the window's first
 * turn; `day`: tokens and cost in the UTC day). A row whose window is over is restarted by the
 * next write. In the store, so counts survive restarts and instances on one PostgreSQL database
 * share them.
 */
export const usageCounters: Migration = {
  version: 15,
  name: 'usage counters',
  sql: `
CREATE TABLE usage_counters (
  user_key TEXT NOT NULL,
  period TEXT NOT NULL,
  started_at INTEGER NOT NULL,
  turns INTEGER NOT NULL DEFAULT 0,
  tokens INTEGER NOT NULL DEFAULT 0,
  cost REAL NOT NULL DEFAULT 0,
  PRIMARY KEY (user_key, period)
);
`,
  pg: `
CREATE TABLE usage_counters (
  user_key TEXT NOT NULL,
  period TEXT NOT NULL,
  started_at BIGINT NOT NULL,
  turns INTEGER NOT NULL DEFAULT 0,
  tokens BIGINT NOT NULL DEFAULT 0,
  cost DOUBLE PRECISION NOT NULL DEFAULT 0,
  PRIMARY KEY (user_key, period)
);
`,
};

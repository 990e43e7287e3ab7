/** Per-user usage counters on PostgreSQL: the same statements as SQLite's (usage-counters-repo.ts). */
import type { AsyncMethods } from '../async-store.js';
import {
  USAGE_ADD_SQL,
  USAGE_GET_SQL,
  type UsageCountersRepo,
  type UsageRecord,
  usageAddParams,
  usageCounter,
} from '../usage-counters-repo.js';
import { type PgQueryable, pgRow } from './pg-db.js';

export function createPgUsageCountersRepo(db: PgQueryable): AsyncMethods<UsageCountersRepo> {
  return {
    async add(userKey, period, window, delta) {
      const row = await pgRow<UsageRecord>(db, USAGE_ADD_SQL, usageAddParams(userKey, period, window, delta));
      if (!row) throw new Error('usage_counters: the upsert returned no row');
      return usageCounter(row);
    },
    async get(userKey, period, staleBefore) {
      const row = await pgRow<UsageRecord>(db, USAGE_GET_SQL, [userKey, period, staleBefore]);
      return row ? usageCounter(row) : undefined;
    },
  };
}

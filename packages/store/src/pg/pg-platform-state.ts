import type { AsyncMethods } from '../async-store.js';
import type { PlatformStateEntry, PlatformStateRepo } from '../platform-state-repo.js';
import { type PgQueryable, pgRow, pgRows } from './pg-db.js';

/** The upsert the inbox's accept also runs inside its transaction. */
export const UPSERT_PLATFORM_STATE = `INSERT INTO platform_state (platform, key, value, updated_at) VALUES ($1, $2, $3, $4)
  ON CONFLICT (platform, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`;

/** Per-platform key/value state on PostgreSQL. */
export function createPgPlatformStateRepo(db: PgQueryable, now: () => number): AsyncMethods<PlatformStateRepo> {
  return {
    async get(platform, key) {
      const row = await pgRow<{ value: string }>(
        db,
        'SELECT value FROM platform_state WHERE platform = $1 AND key = $2',
        [platform, key],
      );
      return row?.value;
    },
    async set(platform, key, value) {
      await db.query(UPSERT_PLATFORM_STATE, [platform, key, value, now()]);
    },
    async delete(platform, key) {
      await db.query('DELETE FROM platform_state WHERE platform = $1 AND key = $2', [platform, key]);
    },
    all: () =>
      pgRows<PlatformStateEntry>(
        db,
        'SELECT platform, key, value FROM platform_state ORDER BY platform COLLATE "C", key COLLATE "C"',
      ),
  };
}

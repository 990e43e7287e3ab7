import type { SqliteDatabase } from './sqlite.js';

export interface PlatformStateRepo {
  /** The value stored under `key` for `platform` (e.g. Telegram's update offset), if any. */
  get(platform: string, key: string): string | undefined;
  /** Stores `value` under `key` for `platform`, replacing any previous value. */
  set(platform: string, key: string, value: string): void;
  /** Removes `key` of `platform` (nothing when absent). */
  delete(platform: string, key: string): void;
  /** Every platform's entries (an in-memory copy loads them), by platform and key. */
  all(): PlatformStateEntry[];
}

export interface PlatformStateEntry {
  platform: string;
  key: string;
  value: string;
}

/** Builds the platform_state repository; every statement is prepared here, once. */
export function createPlatformStateRepo(db: SqliteDatabase, now: () => number): PlatformStateRepo {
  const get = db
    .prepare<[string, string], string>('SELECT value FROM platform_state WHERE platform = ? AND key = ?')
    .pluck();
  const set = db.prepare<[string, string, string, number]>(
    `INSERT INTO platform_state (platform, key, value, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (platform, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  );
  const remove = db.prepare<[string, string]>('DELETE FROM platform_state WHERE platform = ? AND key = ?');
  const all = db.prepare<[], PlatformStateEntry>(
    'SELECT platform, key, value FROM platform_state ORDER BY platform, key',
  );
  return {
    all: () => all.all(),
    get: (platform, key) => get.get(platform, key),
    delete(platform, key) {
      remove.run(platform, key);
    },
    set(platform, key, value) {
      set.run(platform, key, value, now());
    },
  };
}

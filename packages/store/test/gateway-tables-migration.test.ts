import { join } from 'node:path';
import { MIGRATIONS, openStore } from '@hermes/store';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../src/migrate.js';
import { useTempDirs } from './temp-dir.js';

const tempDir = useTempDirs();

describe('migration 2 (gateway tables)', () => {
  it('upgrades a version-1 database, keeping its sessions', () => {
    const path = join(tempDir(), 'state.db');
    const old = new Database(path);
    migrate(old, MIGRATIONS.slice(0, 1), { now: () => 1, path });
    old
      .prepare(
        "INSERT INTO sessions (id, session_key, platform, created_at, updated_at) VALUES ('sess_old', 'k', 'cli', 1, 1)",
      )
      .run();
    old.close();

    const store = openStore(path);
    try {
      expect(store.schemaVersion()).toBe(MIGRATIONS.length);
      const tables = store.db
        .prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .pluck()
        .all();
      expect(tables).toEqual(
        expect.arrayContaining([
          'inbox',
          'outbox',
          'platform_state',
          'pairing_requests',
          'pairing_failures',
          'approved_users',
        ]),
      );
      expect(store.sessions.get('sess_old')?.sessionKey).toBe('k');
      expect(store.inbox.accept('telegram', '1', { hello: true }).accepted).toBe(true);
    } finally {
      store.close();
    }
  });
});

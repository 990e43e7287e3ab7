import { join } from 'node:path';
import { MIGRATIONS, openStore } from '@hermes/store';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../src/migrate.js';
import { useTempDirs } from './temp-dir.js';

const tempDir = useTempDirs();

describe('migration 3 (inbox refused status)', () => {
  it('rebuilds the inbox of a version-2 database: rows, dedupe keys and outbox links kept; `refused` accepted', () => {
    const path = join(tempDir(), 'state.db');
    const old = new Database(path);
    old.pragma('foreign_keys = ON');
    migrate(old, MIGRATIONS.slice(0, 2), { now: () => 1, path });
    const inbox = old.prepare(
      `INSERT INTO inbox (platform, message_key, payload, status, accepted_at, updated_at, attempts)
       VALUES (?, ?, '{}', ?, 1, 1, ?)`,
    );
    inbox.run('telegram', 'm1', 'done', 1);
    inbox.run('telegram', 'm2', 'accepted', 0);
    old
      .prepare(
        `INSERT INTO outbox (inbox_id, platform, chat_id, chunk_index, text, formatted, status, created_at)
         VALUES (1, 'telegram', '42', 0, 'answer', 0, 'sent', 1), (NULL, 'telegram', '42', 0, 'hook', 0, 'sent', 1)`,
      )
      .run();
    expect(() => inbox.run('telegram', 'm3', 'refused', 0)).toThrow(/CHECK constraint failed/);
    old.close();

    const store = openStore(path);
    try {
      expect(store.schemaVersion()).toBe(MIGRATIONS.length);
      expect(store.inbox.get(1)).toMatchObject({ messageKey: 'm1', status: 'done', attempts: 1 });
      expect(store.inbox.pending().map((r) => r.messageKey)).toEqual(['m2']);
      expect(store.inbox.accept('telegram', 'm1', {}).accepted).toBe(false);
      const links = store.db.prepare('SELECT inbox_id AS inboxId, text FROM outbox ORDER BY id').all();
      expect(links).toEqual([
        { inboxId: 1, text: 'answer' },
        { inboxId: null, text: 'hook' },
      ]);
      expect(store.outbox.forInbox(1)).toHaveLength(1);
      expect(store.inbox.mark(2, 'refused')).toBe(true);
      expect(store.inbox.countByStatus()).toMatchObject({ done: 1, refused: 1, accepted: 0 });
      expect(store.db.pragma('foreign_key_check')).toEqual([]);
      const index = store.db
        .prepare<[], string>("SELECT sql FROM sqlite_master WHERE name = 'inbox_unfinished'")
        .pluck()
        .get();
      expect(index).toMatch(/WHERE status IN \('accepted', 'processing'\)/);
    } finally {
      store.close();
    }
  });
});

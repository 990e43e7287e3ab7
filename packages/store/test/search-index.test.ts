// session_search's index written in batches (migration 18): a message is queued by its insert,
// indexed before the next search or once a batch is queued; queued and indexed rows both survive
// edits, deletes and ids handed out again, and the index stays consistent with `messages`.
import { join } from 'node:path';
import { MIGRATIONS, openStore, type Store } from '@hermes/store';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../src/migrate.js';
import { SEARCH_INDEX_BATCH } from '../src/search-index.js';
import { useTempDirs } from './temp-dir.js';
import { useStores } from './use-store.js';

const { open, freshPath } = useStores();
const tempDir = useTempDirs();

const count = (store: Store, sql: string): number => store.db.prepare<[], number>(sql).pluck().get() ?? 0;
const inIndex = (store: Store, word: string) =>
  count(store, `SELECT COUNT(*) FROM messages_fts WHERE messages_fts MATCH '${word}'`);
const queued = (store: Store) => count(store, 'SELECT COUNT(*) FROM messages_fts_pending');
const consistent = (store: Store) =>
  expect(() => store.db.exec("INSERT INTO messages_fts (messages_fts) VALUES ('integrity-check')")).not.toThrow();
const found = (store: Store, word: string) => store.sessionSearch.search(word, { limit: 50 }).length;

describe('session search index in batches', () => {
  it('queues a stored message until a search, which finds it and indexes the queue', () => {
    const store = open();
    const s = store.sessions.create({ key: 'k', platform: 'cli' });
    store.transcripts.append(s.id, [
      { role: 'user', content: 'an okapi' },
      { role: 'assistant', content: null, tool_calls: [] },
      { role: 'tool', tool_call_id: 'c', content: 'okapi okapi' },
    ]);
    expect(inIndex(store, 'okapi')).toBe(0);
    expect(queued(store)).toBe(1); // tool results and empty contents are never indexed
    expect(found(store, 'okapi')).toBe(1);
    expect(queued(store)).toBe(0);
    expect(inIndex(store, 'okapi')).toBe(1);
    consistent(store);
  });

  it('indexes a full batch without a search, in the transaction that queued it', () => {
    const store = open();
    const s = store.sessions.create({ key: 'k', platform: 'cli' });
    for (let i = 0; i < SEARCH_INDEX_BATCH / 2 - 1; i++) {
      store.transcripts.append(s.id, [
        { role: 'user', content: `tapir ${i}` },
        { role: 'assistant', content: 'noted' },
      ]);
    }
    expect(queued(store)).toBe(SEARCH_INDEX_BATCH - 2);
    expect(inIndex(store, 'tapir')).toBe(0);
    store.transcripts.append(s.id, [
      { role: 'user', content: 'tapir last' },
      { role: 'assistant', content: 'noted' },
    ]);
    expect(queued(store)).toBe(0);
    expect(inIndex(store, 'tapir')).toBe(SEARCH_INDEX_BATCH / 2);
    consistent(store);
  });

  it('a queued message edited or deleted before it is indexed never reaches the index as it was', () => {
    const store = open();
    const s = store.sessions.create({ key: 'k', platform: 'cli', id: 'sess_q' });
    store.transcripts.append(s.id, [
      { role: 'user', content: 'a quagga' },
      { role: 'assistant', content: 'a quagga indeed' },
    ]);
    store.db.prepare("UPDATE messages SET content = 'a narwhal' WHERE session_id = 'sess_q' AND seq = 1").run();
    expect(queued(store)).toBe(2);
    store.db.prepare("DELETE FROM messages WHERE session_id = 'sess_q' AND seq = 2").run();
    expect(queued(store)).toBe(1);
    expect(found(store, 'quagga')).toBe(0);
    expect(found(store, 'narwhal')).toBe(1);
    // an edit to a message the index holds is queued again with its new text
    store.db.prepare("UPDATE messages SET content = 'a dugong' WHERE session_id = 'sess_q' AND seq = 1").run();
    expect(queued(store)).toBe(1);
    expect(found(store, 'narwhal')).toBe(0);
    expect(found(store, 'dugong')).toBe(1);
    // an edit that makes it unsearchable takes it out
    store.db.prepare("UPDATE messages SET role = 'tool' WHERE session_id = 'sess_q' AND seq = 1").run();
    expect(queued(store)).toBe(0);
    expect(found(store, 'dugong')).toBe(0);
    consistent(store);
  });

  it('an id handed out again after /undo is queued afresh, not taken for the indexed row it replaced', () => {
    const store = open();
    const s = store.sessions.create({ key: 'k', platform: 'cli' });
    store.transcripts.append(s.id, [
      { role: 'user', content: 'first gnu' },
      { role: 'assistant', content: 'ok' },
    ]);
    expect(found(store, 'gnu')).toBe(1); // indexed
    const lastId = count(store, 'SELECT MAX(id) FROM messages');
    expect(store.transcripts.dropLastExchange(s.id)).toHaveLength(2);
    store.transcripts.append(s.id, [
      { role: 'user', content: 'second ibex' },
      { role: 'assistant', content: 'ok' },
    ]);
    expect(count(store, 'SELECT MAX(id) FROM messages')).toBe(lastId); // SQLite reused the ids
    expect(found(store, 'gnu')).toBe(0);
    expect(found(store, 'ibex')).toBe(1);
    store.pruner.prune(Date.now() + 1);
    expect(found(store, 'ibex')).toBe(0);
    consistent(store);
  });

  it("a write's rollback takes its queue entries with it", () => {
    const store = open();
    const s = store.sessions.create({ key: 'k', platform: 'cli' });
    expect(() =>
      store.transaction(() => {
        store.transcripts.append(s.id, [{ role: 'user', content: 'an eland' }]);
        throw new Error('the unit failed');
      }),
    ).toThrow('the unit failed');
    expect(queued(store)).toBe(0);
    expect(found(store, 'eland')).toBe(0);
  });

  it('messages another process queued are found after a reopen', () => {
    const path = freshPath();
    const first = openStore(path);
    const s = first.sessions.create({ key: 'k', platform: 'cli' });
    first.transcripts.append(s.id, [{ role: 'user', content: 'a kudu' }]);
    first.close();
    const second = open({}, path);
    expect(queued(second)).toBe(1);
    expect(found(second, 'kudu')).toBe(1);
    consistent(second);
  });

  it('migration 18 keeps what migration 6 indexed: nothing queued, everything found', () => {
    const path = join(tempDir(), 'state.db');
    const old = new Database(path);
    old.pragma('foreign_keys = ON');
    migrate(old, MIGRATIONS.slice(0, 17), { now: () => 1, path });
    old.exec(`INSERT INTO sessions (id, session_key, platform, created_at, updated_at) VALUES ('s_old', 'k', 'cli', 1, 1);
      INSERT INTO messages (session_id, seq, role, content, created_at) VALUES ('s_old', 1, 'user', 'an old zebu', 1);`);
    old.close();
    const store = open({}, path);
    expect(queued(store)).toBe(0);
    expect(inIndex(store, 'zebu')).toBe(1);
    expect(found(store, 'zebu')).toBe(1);
    store.db.prepare("DELETE FROM messages WHERE session_id = 's_old'").run();
    expect(found(store, 'zebu')).toBe(0);
    consistent(store);
  });
});

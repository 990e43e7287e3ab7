// session_search's index: triggers keep it in step with inserts (queued, indexed in batches:
// search-index.test.ts), deletes (a prune's cascade), updates; the migration backfills rows stored
// before it; the model's query is never FTS5 syntax.
import { join } from 'node:path';
import { ftsPhrases, MIGRATIONS, openStore, type Store } from '@hermes/store';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../src/migrate.js';
import { useTempDirs } from './temp-dir.js';
import { useStores } from './use-store.js';

const { open } = useStores();
const tempDir = useTempDirs();

const indexed = (store: Store): number =>
  store.db.prepare<[], number>("SELECT COUNT(*) FROM messages_fts WHERE messages_fts MATCH 'zebra'").pluck().get() ?? 0;

function seeded(now = () => 1_000) {
  const store = open({ now });
  const a = store.sessions.create({ key: 'k1', platform: 'telegram', id: 'sess_a' });
  const b = store.sessions.create({ key: 'k2', platform: 'cli', id: 'sess_b' });
  store.transcripts.append(a.id, [
    { role: 'user', content: 'my zebra is called Stripes' },
    { role: 'assistant', content: 'Nice name for a zebra!' },
  ]);
  store.transcripts.append(b.id, [
    { role: 'user', content: 'what about the docker compose port?' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'terminal', arguments: '{"command":"zebra"}' } }],
    },
    { role: 'tool', tool_call_id: 'c1', content: '{"output":"zebra zebra"}' },
    { role: 'assistant', content: 'It listens on 8080.' },
  ]);
  return store;
}

describe('session search (FTS5)', () => {
  it('finds user and assistant messages, ranked, with session ids, dates and snippets', () => {
    const store = seeded();
    const hits = store.sessionSearch.search('zebra', { limit: 10 });
    expect(hits.map((h) => h.sessionId)).toEqual(['sess_a', 'sess_a']);
    expect(hits[0]).toMatchObject({ platform: 'telegram', at: 1_000, sessionCreatedAt: 1_000 });
    expect(hits.map((h) => h.snippet).join(' ')).toContain('[zebra]');
    // the tool call's arguments and the tool result are not indexed
    expect(indexed(store)).toBe(2);
  });

  it('excludes the asking session and honours the limit', () => {
    const store = seeded();
    expect(store.sessionSearch.search('zebra', { limit: 10, excludeSessionId: 'sess_a' })).toEqual([]);
    expect(store.sessionSearch.search('zebra', { limit: 1 })).toHaveLength(1);
  });

  it('treats FTS5 syntax from the model as text, never as an error', () => {
    const store = seeded();
    for (const query of ['"docker', 'port?)', 'NEAR(docker', 'docker AND', '-port', 'col:docker', '*', '"', '()']) {
      expect(() => store.sessionSearch.search(query, { limit: 5 })).not.toThrow();
    }
    expect(store.sessionSearch.search('"docker compose"', { limit: 5 })[0]?.sessionId).toBe('sess_b');
    expect(store.sessionSearch.search('***', { limit: 5 })).toEqual([]);
    expect(ftsPhrases('say "hi" NOT x*')).toEqual(['"say"', '"""hi"""', '"NOT"', '"x*"']);
  });

  it('all words first; when no message has all of them, any of them', () => {
    const store = seeded();
    expect(store.sessionSearch.search('docker 8080', { limit: 5 }).map((h) => h.sessionId)).toEqual([
      'sess_b',
      'sess_b',
    ]);
    expect(store.sessionSearch.search('compose port', { limit: 5 })).toHaveLength(1);
  });

  it('a deleted session (prune, cascade) leaves the index; an edited message is re-indexed', () => {
    const store = seeded();
    store.sessionSearch.search('zebra', { limit: 1 }); // indexes what the appends queued
    expect(indexed(store)).toBe(2);
    store.db.prepare("UPDATE messages SET content = 'a giraffe now' WHERE session_id = 'sess_a' AND seq = 1").run();
    expect(indexed(store)).toBe(1);
    expect(store.sessionSearch.search('giraffe', { limit: 5 })).toHaveLength(1);
    store.pruner.prune(2_000);
    expect(indexed(store)).toBe(0);
    expect(store.sessionSearch.search('giraffe', { limit: 5 })).toEqual([]);
    // the index is consistent with its content table (an external-content integrity check)
    expect(() => store.db.exec("INSERT INTO messages_fts (messages_fts) VALUES ('integrity-check')")).not.toThrow();
  });

  it('the migration indexes the messages stored before it, once', () => {
    const path = join(tempDir(), 'state.db');
    const old = new Database(path);
    old.pragma('foreign_keys = ON');
    migrate(old, MIGRATIONS.slice(0, 5), { now: () => 1, path });
    old.exec(`INSERT INTO sessions (id, session_key, platform, created_at, updated_at) VALUES ('s_old', 'k', 'cli', 1, 1);
      INSERT INTO messages (session_id, seq, role, content, created_at) VALUES ('s_old', 1, 'user', 'an old zebra', 1);`);
    old.close();
    const store = openStore(path);
    try {
      expect(store.sessionSearch.search('zebra', { limit: 5 }).map((h) => h.sessionId)).toEqual(['s_old']);
      expect(indexed(store)).toBe(1);
    } finally {
      store.close();
    }
  });
});

describe('memory snapshots', () => {
  it('keeps the first block of a stored session, none for an unknown one, and goes with its session', () => {
    const store = open({ now: () => 1_000 });
    store.sessions.create({ key: 'k', platform: 'cli', id: 'sess_m' });
    expect(store.memorySnapshots.put('sess_m', 'builtin', 'first')).toBe(true);
    expect(store.memorySnapshots.put('sess_m', 'builtin', 'second')).toBe(false);
    expect(store.memorySnapshots.get('sess_m')).toBe('first');
    expect(store.memorySnapshots.put('stateless', 'builtin', 'x')).toBe(false);
    expect(store.memorySnapshots.get('stateless')).toBeUndefined();
    store.pruner.prune(2_000);
    expect(store.memorySnapshots.get('sess_m')).toBeUndefined();
  });
});

import { join } from 'node:path';
import { ERROR_CODES } from '@hermes/protocol';
import { openStore, type Store } from '@hermes/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeClock, useTempDirs } from './temp-dir.js';

const tempDir = useTempDirs();
let clock: ReturnType<typeof fakeClock>;
let store: Store;

beforeEach(() => {
  clock = fakeClock(1_000);
  store = openStore(join(tempDir(), 'state.db'), { now: clock.now });
});
afterEach(() => store.close());

describe('store.sessions', () => {
  it('creates a session with a sess_ + 16 hex id and the injected clock', () => {
    const row = store.sessions.create({ key: 'telegram:42', platform: 'telegram', model: 'gpt-x' });
    expect(row.id).toMatch(/^sess_[0-9a-f]{16}$/);
    expect(row).toEqual({
      id: row.id,
      sessionKey: 'telegram:42',
      platform: 'telegram',
      model: 'gpt-x',
      title: null,
      createdAt: 1_000,
      updatedAt: 1_000,
      endedAt: null,
      endReason: null,
      userKey: null,
    });
    expect(store.sessions.get(row.id)).toEqual(row);
    expect(store.sessions.create({ key: 'telegram:42', platform: 'telegram' }).id).not.toBe(row.id);
  });

  it('accepts a caller-chosen id and refuses a duplicate one', () => {
    store.sessions.create({ key: 'k', platform: 'cli', id: 'sess_fixed', title: 'hello' });
    expect(store.sessions.get('sess_fixed')?.title).toBe('hello');
    expect(() => store.sessions.create({ key: 'k2', platform: 'cli', id: 'sess_fixed' })).toThrow(
      expect.objectContaining({ code: ERROR_CODES.STATE_DB, message: expect.stringContaining('sess_fixed') }),
    );
    expect(store.sessions.get('missing')).toBeUndefined();
  });

  it('activeByKey returns the latest session of the key that has not ended', () => {
    expect(store.sessions.activeByKey('k')).toBeUndefined();
    const first = store.sessions.create({ key: 'k', platform: 'cli' });
    clock.t += 10;
    const second = store.sessions.create({ key: 'k', platform: 'cli' });
    store.sessions.create({ key: 'other', platform: 'cli' });
    expect(store.sessions.activeByKey('k')?.id).toBe(second.id);

    clock.t += 10;
    expect(store.sessions.end(second.id, 'reset')).toBe(true);
    expect(store.sessions.activeByKey('k')?.id).toBe(first.id);
    expect(store.sessions.end(first.id, 'idle')).toBe(true);
    expect(store.sessions.activeByKey('k')).toBeUndefined();
  });

  it('finds the active session through the partial index, not a table scan', () => {
    const plan = store.db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT id FROM sessions WHERE session_key = ? AND ended_at IS NULL
         ORDER BY created_at DESC, rowid DESC LIMIT 1`,
      )
      .all('k') as { detail: string }[];
    expect(plan.map((row) => row.detail).join('\n')).toContain('USING INDEX sessions_active_by_key');
  });

  it('breaks ties on equal created_at by insertion order', () => {
    store.sessions.create({ key: 'k', platform: 'cli', id: 'sess_a' });
    store.sessions.create({ key: 'k', platform: 'cli', id: 'sess_b' });
    expect(store.sessions.activeByKey('k')?.id).toBe('sess_b');
  });

  it('end records reason and time once; a second end or an unknown id returns false', () => {
    const row = store.sessions.create({ key: 'k', platform: 'cli' });
    clock.t = 5_000;
    expect(store.sessions.end(row.id, 'reset')).toBe(true);
    clock.t = 6_000;
    expect(store.sessions.end(row.id, 'again')).toBe(false);
    expect(store.sessions.end('sess_nope', 'x')).toBe(false);
    expect(store.sessions.get(row.id)).toMatchObject({ endedAt: 5_000, endReason: 'reset', updatedAt: 5_000 });
  });

  it('touch moves updatedAt only', () => {
    const row = store.sessions.create({ key: 'k', platform: 'cli' });
    clock.t = 9_000;
    expect(store.sessions.touch(row.id)).toBe(true);
    expect(store.sessions.touch('sess_nope')).toBe(false);
    expect(store.sessions.get(row.id)).toMatchObject({ createdAt: 1_000, updatedAt: 9_000 });
  });

  it('list returns most recently updated first, honours limit and platform', () => {
    const a = store.sessions.create({ key: 'a', platform: 'telegram' });
    clock.t += 1;
    const b = store.sessions.create({ key: 'b', platform: 'discord' });
    clock.t += 1;
    const c = store.sessions.create({ key: 'c', platform: 'telegram' });
    clock.t += 1;
    store.sessions.touch(a.id);
    expect(store.sessions.list({ limit: 10 }).map((s) => s.id)).toEqual([a.id, c.id, b.id]);
    expect(store.sessions.list({ limit: 2 }).map((s) => s.id)).toEqual([a.id, c.id]);
    expect(store.sessions.list({ limit: 10, platform: 'telegram' }).map((s) => s.id)).toEqual([a.id, c.id]);
    expect(store.sessions.list({ limit: 10, platform: 'slack' })).toEqual([]);
  });

  it('deleting a session cascades to its messages (foreign keys are on)', () => {
    const row = store.sessions.create({ key: 'k', platform: 'cli' });
    store.transcripts.append(row.id, [{ role: 'user', content: 'hi' }]);
    store.db.prepare('DELETE FROM sessions WHERE id = ?').run(row.id);
    expect(store.transcripts.count(row.id)).toBe(0);
    expect(store.db.prepare('SELECT COUNT(*) FROM messages').pluck().get()).toBe(0);
  });
});

import { join } from 'node:path';
import { type ChatMessage, ERROR_CODES } from '@hermes/protocol';
import { openStore, type Store } from '@hermes/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeClock, useTempDirs } from './temp-dir.js';

const tempDir = useTempDirs();
let clock: ReturnType<typeof fakeClock>;
let store: Store;
let sessionId: string;

beforeEach(() => {
  clock = fakeClock(1_000);
  store = openStore(join(tempDir(), 'state.db'), { now: clock.now });
  sessionId = store.sessions.create({ key: 'k', platform: 'cli' }).id;
});
afterEach(() => store.close());

/** One of every ChatMessage shape, including the optional-field variants. */
const EVERY_KIND: ChatMessage[] = [
  { role: 'system', content: 'You are Hermes.' },
  { role: 'user', content: 'What time is it in Paris? ünïcødé 🌍' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [
      { id: 'call_1', type: 'function', function: { name: 'clock', arguments: '{"tz":"Europe/Paris"}' } },
      { id: 'call_2', type: 'function', function: { name: 'weather', arguments: '{}' } },
    ],
  },
  { role: 'tool', content: '12:00', tool_call_id: 'call_1', name: 'clock' },
  { role: 'tool', content: '', tool_call_id: 'call_2' },
  { role: 'assistant', content: 'Let me check.', tool_calls: [] },
  { role: 'assistant', content: 'It is noon, and sunny.' },
  { role: 'assistant', content: null },
  { role: 'user', content: '' },
];

describe('store.transcripts', () => {
  it('round-trips every message kind exactly (no added null/undefined fields)', () => {
    store.transcripts.append(sessionId, EVERY_KIND);
    const listed = store.transcripts.list(sessionId);
    expect(listed).toStrictEqual(EVERY_KIND);
    // toStrictEqual already rejects extra undefined keys; check the key sets explicitly as well.
    expect(listed.map((m) => Object.keys(m).sort())).toEqual(EVERY_KIND.map((m) => Object.keys(m).sort()));
  });

  it('numbers messages so seq continues from the current maximum across appends', () => {
    expect(store.transcripts.append(sessionId, [{ role: 'user', content: 'one' }])).toBe(1);
    expect(
      store.transcripts.append(sessionId, [
        { role: 'assistant', content: 'two' },
        { role: 'user', content: 'three' },
      ]),
    ).toBe(3);
    expect(store.transcripts.append(sessionId, [])).toBe(3);
    const seqs = store.db.prepare('SELECT seq FROM messages WHERE session_id = ? ORDER BY id').pluck().all(sessionId);
    expect(seqs).toEqual([1, 2, 3]);
    expect(store.transcripts.list(sessionId).map((m) => m.content)).toEqual(['one', 'two', 'three']);
    expect(store.transcripts.count(sessionId)).toBe(3);
  });

  it('lists in seq order even when rows were inserted out of order', () => {
    const insert = store.db.prepare(
      "INSERT INTO messages (session_id, seq, role, content, created_at) VALUES (?, ?, 'user', ?, 0)",
    );
    insert.run(sessionId, 2, 'second');
    insert.run(sessionId, 1, 'first');
    expect(store.transcripts.list(sessionId).map((m) => m.content)).toEqual(['first', 'second']);
    expect(store.transcripts.append(sessionId, [{ role: 'user', content: 'third' }])).toBe(3);
  });

  it('keeps sessions separate', () => {
    const other = store.sessions.create({ key: 'k2', platform: 'cli' }).id;
    store.transcripts.append(sessionId, [{ role: 'user', content: 'mine' }]);
    expect(store.transcripts.append(other, [{ role: 'user', content: 'theirs' }])).toBe(1);
    expect(store.transcripts.list(other)).toEqual([{ role: 'user', content: 'theirs' }]);
    expect(store.transcripts.count(sessionId)).toBe(1);
    expect(store.transcripts.list('sess_unknown')).toEqual([]);
  });

  it('bumps the session updatedAt on append', () => {
    clock.t = 7_777;
    store.transcripts.append(sessionId, [{ role: 'user', content: 'hi' }]);
    expect(store.sessions.get(sessionId)?.updatedAt).toBe(7_777);
  });

  it('appends all-or-nothing: a bad message rolls back the whole batch', () => {
    store.transcripts.append(sessionId, [{ role: 'user', content: 'kept' }]);
    const bad = { role: 'narrator', content: 'x' } as unknown as ChatMessage;
    expect(() => store.transcripts.append(sessionId, [{ role: 'user', content: 'lost' }, bad])).toThrow();
    expect(store.transcripts.list(sessionId)).toEqual([{ role: 'user', content: 'kept' }]);
  });

  it('refuses to append to an unknown session with a STATE_DB error', () => {
    expect(() => store.transcripts.append('sess_missing', [{ role: 'user', content: 'x' }])).toThrow(
      expect.objectContaining({ code: ERROR_CODES.STATE_DB, message: 'cannot append to unknown session sess_missing' }),
    );
  });

  it('reports a corrupt tool_calls column with a STATE_DB error naming the row', () => {
    store.db
      .prepare(
        "INSERT INTO messages (session_id, seq, role, content, tool_calls, created_at) VALUES (?, 1, 'assistant', NULL, '{oops', 0)",
      )
      .run(sessionId);
    expect(() => store.transcripts.list(sessionId)).toThrow(
      expect.objectContaining({ code: ERROR_CODES.STATE_DB, message: expect.stringContaining(`${sessionId} seq 1`) }),
    );
  });

  it('reports a tool_calls entry of the wrong shape', () => {
    store.db
      .prepare(
        "INSERT INTO messages (session_id, seq, role, content, tool_calls, created_at) VALUES (?, 1, 'assistant', NULL, ?, 0)",
      )
      .run(sessionId, JSON.stringify([{ id: 'c', type: 'function', function: { name: 'f' } }]));
    expect(() => store.transcripts.list(sessionId)).toThrow(/function\.arguments/);
  });
});

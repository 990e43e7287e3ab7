// The group commit's units of work on SQLite: a batch runs with no savepoint while nothing fails,
// and the writes of a unit open none of their own (write-scope.ts), yet a unit that fails midway
// through a write of several statements still leaves nothing behind, alone or beside other units.

import { asyncSqliteStore, type StoreWrite } from '@hermes/store';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { useStores } from './use-store.js';

const { open } = useStores();

type Run = (...args: unknown[]) => unknown;
const probe = new Database(':memory:');
const statementProto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as { run: Run };
probe.close();
const originalRun = statementProto.run;
afterEach(() => {
  statementProto.run = originalRun;
});

/** Counts the SAVEPOINT statements run from now on. */
function countSavepoints(): { readonly n: number } {
  const counter = { n: 0 };
  statementProto.run = function (this: { source: string }, ...args: unknown[]) {
    if (this.source.startsWith('SAVEPOINT')) counter.n += 1;
    return originalRun.apply(this, args);
  };
  return counter;
}

const message = (n: number): StoreWrite[] => [
  { kind: 'inbox.accept', platform: 'test', key: `m${n}`, payload: { n }, state: { offset: String(n) } },
];

describe('units of work in the group commit', () => {
  it('units commit without savepoints, and their writes open none of their own', async () => {
    const sync = open();
    const store = asyncSqliteStore(sync);
    const session = sync.sessions.create({ key: 'k', platform: 'test' });
    const savepoints = countSavepoints();
    const [accepted] = await store.commit(message(1));
    const inboxId = (accepted as { id: number }).id;
    await store.commit([
      { kind: 'transcripts.append', sessionId: session.id, messages: [{ role: 'user', content: 'hi' }] },
      { kind: 'outbox.enqueue', rows: [{ inboxId, platform: 'test', chatId: '1', chunkIndex: 0, text: 'yo' }] },
    ]);
    expect(savepoints.n).toBe(0);
    // two units in one turn: none either while nothing fails
    await Promise.all([store.commit(message(2)), store.commit(message(3))]);
    expect(savepoints.n).toBe(0);
    expect(sync.inbox.countByStatus().accepted).toBe(3);
    expect(sync.transcripts.list(session.id)).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('a unit failing inside a write of several statements leaves nothing of itself, alone or grouped', async () => {
    const sync = open();
    const store = asyncSqliteStore(sync);
    const session = sync.sessions.create({ key: 'k', platform: 'test' });
    const inboxId = (sync.inbox.accept('test', 'in', {}) as { id: number }).id;
    // the second chunk breaks a NOT NULL after the first was inserted
    const failing = (): StoreWrite[] => [
      { kind: 'transcripts.append', sessionId: session.id, messages: [{ role: 'user', content: 'lost' }] },
      {
        kind: 'outbox.enqueue',
        rows: [
          { inboxId, platform: 'test', chatId: '1', chunkIndex: 0, text: 'first' },
          { inboxId, platform: 'test', chatId: '1', chunkIndex: 1, text: null as unknown as string },
        ],
      },
    ];
    await expect(store.commit(failing())).rejects.toThrow(/NOT NULL/);
    const grouped = store.commit(failing());
    const other = store.commit(message(7));
    await expect(grouped).rejects.toThrow(/NOT NULL/);
    expect(await other).toEqual([{ accepted: true, id: expect.any(Number) }]);
    expect(sync.outbox.forInbox(inboxId)).toEqual([]);
    expect(sync.transcripts.list(session.id)).toEqual([]);
    expect(sync.platformState.get('test', 'offset')).toBe('7');
    // a write outside the group commit is still its own transaction
    expect(() =>
      sync.outbox.enqueue([
        { inboxId, platform: 'test', chatId: '1', chunkIndex: 0, text: 'first' },
        { inboxId, platform: 'test', chatId: '1', chunkIndex: 1, text: null as unknown as string },
      ]),
    ).toThrow(/NOT NULL/);
    expect(sync.outbox.forInbox(inboxId)).toEqual([]);
  });

  it('store.unit runs only inside a transaction', () => {
    const sync = open();
    expect(() => sync.unit(() => 1)).toThrow(/outside a transaction/);
    expect(sync.transaction(() => sync.unit(() => 2))).toBe(2);
  });
});

// The gateway against an asynchronous store: every commit and read answers only after a real
// round trip (a timer, as a PostgreSQL server would), never in the same event-loop turn. The
// exactly-once properties must not lean on SQLite answering synchronously: each message is
// answered once, its transcript and inbox marks are written, and a restart between accepting and
// replying still gives exactly one reply.
import type { GatewayStore } from '@hermes/gateway';
import type { StoreWrite } from '@hermes/store';
import { afterEach, describe, expect, it } from 'vitest';
import { sqliteGatewayStore } from '../helpers/gateway-store.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { waitFor } from '../helpers/wait-for.js';
import { type Harness, startHarness } from './harness.js';

const openai = useFakeOpenAI();
let h: Harness | null = null;
afterEach(async () => {
  await h?.stop();
  h = null;
});

/** Every answer of the store comes a timer later; the units of work it committed are recorded. */
function roundTrip(units: StoreWrite['kind'][][]) {
  const later = <T>(value: () => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => setTimeout(() => value().then(resolve, reject), 2));
  return (store: GatewayStore): GatewayStore => ({
    ...store,
    sessions: {
      ...store.sessions,
      create: (row) => later(() => store.sessions.create(row)),
      activeByKey: (key) => later(() => store.sessions.activeByKey(key)),
      latestByKey: (key) => later(() => store.sessions.latestByKey(key)),
      idleActive: (query) => later(() => store.sessions.idleActive(query)),
      end: (id, reason) => later(() => store.sessions.end(id, reason)),
    },
    transcripts: {
      ...store.transcripts,
      append: (id, messages) => later(() => store.transcripts.append(id, messages)),
      list: (id) => later(() => store.transcripts.list(id)),
      count: (id) => later(() => store.transcripts.count(id)),
    },
    pairing: {
      ...store.pairing,
      request: (platform, userId, userName) => later(() => store.pairing.request(platform, userId, userName)),
      isApproved: (platform, userId) => later(() => store.pairing.isApproved(platform, userId)),
    },
    inbox: { ...store.inbox, claimUnfinished: (claim) => later(() => store.inbox.claimUnfinished(claim)) },
    outbox: { ...store.outbox, forInbox: (id) => later(() => store.outbox.forInbox(id)) },
    platformState: {
      ...store.platformState,
      get: (platform, key) => later(() => store.platformState.get(platform, key)),
    },
    commit: (work) => {
      units.push(work.map((write) => write.kind));
      return later(() => store.commit(work));
    },
  });
}

describe('the gateway on an asynchronous store', () => {
  it('answers concurrent messages once each, with the transcript committed with the outbox rows', async () => {
    const units: StoreWrite['kind'][][] = [];
    h = await startHarness(openai.server, { wrapStore: roundTrip(units) });
    for (let i = 0; i < 5; i++) openai.server.script({ text: `answer ${i}` });
    await Promise.all(
      Array.from({ length: 5 }, (_, i) => h?.platform.inject(`question ${i}`, { chatId: `c${i}` }, `m${i}`)),
    );
    await h.platform.inject('question 0', { chatId: 'c0' }, 'm0'); // redelivered: a duplicate
    await h.gateway.idle();
    expect(h.platform.sent.map((m) => m.text).sort()).toEqual([0, 1, 2, 3, 4].map((i) => `answer ${i}`));
    // three units per answered message: the accept; transcript + outbox rows; sent mark + inbox done
    expect(units.filter((u) => u.join() === 'inbox.accept')).toHaveLength(6);
    expect(units.filter((u) => u.join() === 'transcripts.append,outbox.enqueue')).toHaveLength(5);
    expect(units.filter((u) => u.join() === 'outbox.markSent,inbox.mark')).toHaveLength(5);
    expect(h.store.inbox.pending()).toEqual([]);
    for (let i = 0; i < 5; i++) {
      const session = h.store.sessions.activeByKey(`memory:c${i}:dm`);
      expect(h.store.transcripts.list(session?.id ?? '').at(-1)).toEqual({ role: 'assistant', content: `answer ${i}` });
    }
  });

  it('restart between accepting and replying: exactly one reply, the redelivery a duplicate', async () => {
    h = await startHarness(openai.server, { wrapStore: roundTrip([]) });
    openai.server.script({ hang: true });
    await h.platform.inject('are you there?', {}, 'r1');
    await waitFor(() => openai.server.requests.length > 0, { what: 'the turn at its model call' });
    const { dbPath, platform } = h;
    await h.stop(); // cut off before any reply: the row stays pending
    openai.server.script({ text: 'yes, after the restart' });
    h = await startHarness(openai.server, { dbPath, platform, wrapStore: roundTrip([]) });
    await h.gateway.idle();
    await h.platform.inject('are you there?', {}, 'r1');
    await h.gateway.idle();
    expect(platform.sent.map((m) => m.text)).toEqual(['yes, after the restart']);
    expect(h.store.inbox.pending()).toEqual([]);
  });

  it('pairing, commands and a hook ingest go through the asynchronous ports', async () => {
    h = await startHarness(openai.server, { wrapStore: roundTrip([]) });
    const ingested: Promise<boolean>[] = [];
    h.hooks.register(
      'pre_gateway_dispatch',
      ({ event, sessionStore }) => {
        if (!event.text.startsWith('psst')) return null;
        ingested.push(sessionStore.ingest(event)); // not awaited: the gateway waits for it
        return { action: 'skip', reason: 'listening' } as const;
      },
      { source: 'test', name: 'listener' },
    );
    await h.platform.inject('hello?', { userId: 'stranger', chatId: 's1' }, 's-1');
    await h.platform.inject('hello again?', { userId: 'stranger', chatId: 's1' }, 's-2');
    await h.gateway.idle();
    expect(h.platform.sent.map((m) => m.text)).toEqual([expect.stringContaining('Your pairing code is')]);
    openai.server.script({ text: 'first' }, { text: 'second' });
    await h.platform.inject('one');
    await h.gateway.idle();
    await h.platform.inject('psst: the code is 42');
    await h.platform.inject('what is the code?');
    await h.gateway.idle();
    expect(await Promise.all(ingested)).toEqual([true]);
    const session = h.store.sessions.activeByKey('memory:c1:dm');
    expect(h.store.transcripts.list(session?.id ?? '').map((m) => m.content)).toEqual([
      'one',
      'first',
      'psst: the code is 42',
      'what is the code?',
      'second',
    ]);
    await h.platform.inject('/status');
    await h.gateway.idle();
    expect(h.platform.sent.at(-1)?.text).toContain(`Session: ${session?.id} (5 messages)`);
    await h.platform.inject('/new');
    await h.gateway.idle();
    expect(h.store.sessions.activeByKey('memory:c1:dm')?.id).not.toBe(session?.id);
    expect(h.store.inbox.pending()).toEqual([]);
  });

  it('a unit of work is all or nothing: a failing write rolls back the writes committed with it', async () => {
    h = await startHarness(openai.server);
    const store = sqliteGatewayStore(h.store);
    const accepted = await store.commit([{ kind: 'inbox.accept', platform: 'memory', key: 'k1', payload: {} }]);
    const id = (accepted[0] as { id: number }).id;
    const failing = store.commit([
      { kind: 'inbox.mark', id, status: 'done' },
      { kind: 'platformState.set', platform: 'memory', key: 'offset', value: '7' },
      { kind: 'outbox.markSent', id: -1, platformMessageId: null },
      { kind: 'transcripts.append', sessionId: 'no such session', messages: [{ role: 'user', content: 'x' }] },
    ]);
    // committed in the same group transaction, in its own savepoint: unaffected
    const other = store.commit([{ kind: 'platformState.set', platform: 'memory', key: 'other', value: 'kept' }]);
    await expect(failing).rejects.toThrow();
    await other;
    expect(h.store.inbox.pending().map((row) => row.id)).toEqual([id]);
    expect(h.store.platformState.get('memory', 'offset')).toBeUndefined();
    expect(h.store.platformState.get('memory', 'other')).toBe('kept');
  });

  it('the SQLite adapter answers reads without an extra event-loop turn', async () => {
    h = await startHarness(openai.server);
    const store = sqliteGatewayStore(h.store);
    const order: string[] = [];
    const macrotask = new Promise<void>((r) => setImmediate(r)).then(() => order.push('next turn'));
    await store.inbox.claimUnfinished({}).then(() => order.push('pending'));
    await store.platformState.get('memory', 'x').then(() => order.push('state'));
    await macrotask;
    expect(order).toEqual(['pending', 'state', 'next turn']);
  });
});

// Session work against a real PostgreSQL: LISTEN/NOTIFY wake-ups, pickup by whichever instance
// gets the session's lease, each item handled once and in order, failures kept with their reason.
import { type Logger, silentLogger } from '@hermes/protocol';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postgresUnavailableReason, usePostgres } from '../../../../test/helpers/postgres.js';
import { ensureClusterSchema } from '../../src/cluster/schema.js';
import { SessionLeases } from '../../src/cluster/session-leases.js';
import { enqueueSessionWork, SessionWorkQueue, type WorkItem } from '../../src/cluster/session-work.js';

const skip = postgresUnavailableReason() !== null;

describe.skipIf(skip)('session work with LISTEN/NOTIFY (PostgreSQL)', () => {
  const pgServer = usePostgres();
  let pool: pg.Pool;
  const open: Array<{ stop(): Promise<void> }> = [];

  /** One "instance": its own lease pool, listener and work pool. */
  async function instance(
    handler: (item: WorkItem, signal: AbortSignal) => Promise<void>,
    extra: { maxAttempts?: number; retryDelayMs?: number; log?: Logger } = {},
  ): Promise<SessionWorkQueue> {
    const leases = new SessionLeases({ target: pgServer.server.url });
    const queue = new SessionWorkQueue({ target: pgServer.server.url, leases, handler, ...extra });
    await queue.start();
    open.push({ stop: () => queue.stop().then(() => leases.close()) });
    return queue;
  }

  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: pgServer.server.url });
    pool.on('error', () => undefined);
    await ensureClusterSchema(pool);
  }, 60_000);
  afterEach(async () => {
    for (const q of open.splice(0)) await q.stop();
    await pool.query('DELETE FROM hermes_session_work');
  });
  afterAll(async () => {
    await pool?.end();
  });

  it('an item enqueued by another connection wakes a listening instance (NOTIFY), which handles it and deletes it', async () => {
    const seen: unknown[] = [];
    await instance(async (item) => void seen.push(item.payload));
    const id = await enqueueSessionWork(pool, 'telegram:1', { text: 'hello' });
    expect(id).toMatch(/^\d+$/);
    await waitFor(() => seen.length === 1);
    expect(seen).toEqual([{ text: 'hello' }]);
    await waitFor(async () => (await count(pool)) === 0);
  });

  it('two instances: every item handled exactly once, in order per session, one handler per session at a time', async () => {
    const handled: string[] = [];
    const running = new Set<string>();
    let overlap = 0;
    const handler = async (item: WorkItem) => {
      if (running.has(item.sessionKey)) overlap++;
      running.add(item.sessionKey);
      await new Promise((r) => setTimeout(r, 2));
      handled.push(`${item.sessionKey}#${(item.payload as { n: number }).n}`);
      running.delete(item.sessionKey);
    };
    const a = await instance(handler);
    const b = await instance(handler);
    const sessions = ['s1', 's2', 's3', 's4'];
    const sent: Promise<string>[] = [];
    for (let n = 0; n < 10; n++) {
      for (const s of sessions) sent.push((n % 2 === 0 ? a : b).enqueue(s, { n }));
      // keep each session's items in enqueue order: the next round waits for this round's inserts
      await Promise.all(sent);
    }
    await waitFor(() => handled.length >= 40);
    await waitFor(async () => (await count(pool)) === 0);
    expect(handled).toHaveLength(40);
    expect(new Set(handled).size).toBe(40);
    expect(overlap).toBe(0);
    for (const s of sessions) {
      const order = handled.filter((h) => h.startsWith(`${s}#`)).map((h) => Number(h.split('#')[1]));
      expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    }
  });

  it('refuses a key too long for NOTIFY or a payload that is not JSON, naming the problem, and stores nothing', async () => {
    await expect(enqueueSessionWork(pool, 'x'.repeat(5000), {})).rejects.toThrow(/session key must be 1 to 4000 bytes/);
    await expect(enqueueSessionWork(pool, '', {})).rejects.toThrow(/session key/);
    await expect(enqueueSessionWork(pool, 'telegram:1', undefined)).rejects.toThrow(
      'session work for telegram:1: the payload is not JSON',
    );
    expect(await count(pool)).toBe(0);
  });

  it('work enqueued while no instance listened is picked up when one starts', async () => {
    await enqueueSessionWork(pool, 'slack:C9', { text: 'while down' });
    const seen: unknown[] = [];
    await instance(async (item) => void seen.push(item.payload));
    await waitFor(() => seen.length === 1);
    expect(seen).toEqual([{ text: 'while down' }]);
  });

  it('a failing handler keeps the item with its reason, retries it, and stops after maxAttempts without dropping it', async () => {
    let calls = 0;
    await instance(
      async () => {
        calls++;
        throw new Error('model unreachable');
      },
      { maxAttempts: 2, retryDelayMs: 50 },
    );
    await enqueueSessionWork(pool, 'discord:7', { text: 'keep me' });
    await waitFor(
      async () => (await pool.query('SELECT 1 FROM hermes_session_work WHERE attempts >= 2')).rowCount === 1,
    );
    const row = (await pool.query('SELECT payload, attempts, last_error FROM hermes_session_work')).rows[0];
    expect(row).toEqual({ payload: { text: 'keep me' }, attempts: 2, last_error: 'model unreachable' });
    expect(calls).toBe(2);
  });

  it('a session held by a run elsewhere waits; the holder wakes it after its run', async () => {
    const seen: string[] = [];
    const debug: string[] = [];
    const logger = { ...silentLogger, debug: (_: unknown, msg?: string) => void debug.push(msg ?? '') };
    logger.child = () => logger;
    const queue = await instance(async (item) => void seen.push(item.sessionKey), { log: logger });
    const other = new SessionLeases({ target: pgServer.server.url });
    await other.runExclusive('api:busy', async () => {
      await enqueueSessionWork(pool, 'api:busy', { text: 'queued' });
      // the NOTIFY reached the queue, which found the session held and left the item
      await waitFor(() => debug.includes('session busy elsewhere; its holder takes the work'));
      expect(seen).toEqual([]);
    });
    await other.close();
    queue.wake('api:busy');
    await waitFor(() => seen.length === 1);
  });
});

async function count(pool: pg.Pool): Promise<number> {
  return Number((await pool.query<{ n: string }>('SELECT count(*)::text AS n FROM hermes_session_work')).rows[0]?.n);
}

async function waitFor(cond: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

// Session leases against a real PostgreSQL: one run per session across processes, a busy session
// seen as busy from another process, a lease whose connection dies aborts its run.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresUnavailableReason, usePostgres } from '../../../../test/helpers/postgres.js';
import { waitFor } from '../../../../test/helpers/wait-for.js';
import { SessionLeases } from '../../src/cluster/session-leases.js';
import { startWorker } from './worker-process.js';

const skip = postgresUnavailableReason() !== null;

describe.skipIf(skip)('session leases (PostgreSQL)', () => {
  const pgServer = usePostgres();
  let pool: pg.Pool;
  let leases: SessionLeases;

  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: pgServer.server.url });
    // pool.end() does not wait for the sockets to close: the server's shutdown may still reach one
    pool.on('error', () => undefined);
    leases = new SessionLeases({ target: pgServer.server.url, checkIntervalMs: 200 });
  }, 60_000);
  afterAll(async () => {
    await leases?.close();
    await pool?.end();
  });

  it('two processes running the same session never overlap; the second waits for the first', async () => {
    const a = startWorker(['session', pgServer.server.url, 'telegram:chat-1', '600']);
    await a.next((e) => e.event === 'start');
    const b = startWorker(['session', pgServer.server.url, 'telegram:chat-1', '0']);
    await b.next((e) => e.event === 'waiting');
    const aEnd = await a.next((e) => e.event === 'end');
    const bStart = await b.next((e) => e.event === 'start');
    expect(bStart.at).toBeGreaterThanOrEqual(aEnd.at);
    await Promise.all([a.exited, b.exited]);
  });

  it('another session is not held up by a running one', async () => {
    const a = startWorker(['session', pgServer.server.url, 'telegram:chat-2', '5000']);
    await a.next((e) => e.event === 'start');
    const b = startWorker(['session', pgServer.server.url, 'telegram:chat-3', '0']);
    await b.next((e) => e.event === 'end');
    expect(a.events.some((e) => e.event === 'end')).toBe(false);
    a.child.kill('SIGKILL');
  });

  it('tryRunExclusive from another process reports the session busy, and runs once it is free', async () => {
    let release = () => undefined as void;
    const held = leases.runExclusive('slack:C1', () => new Promise<void>((r) => (release = r)));
    await waitForLock(pool, 1);
    const busy = startWorker(['try-session', pgServer.server.url, 'slack:C1']);
    await busy.next((e) => e.event === 'busy');
    expect(busy.events.some((e) => e.event === 'start')).toBe(false);
    release();
    await held;
    const free = startWorker(['try-session', pgServer.server.url, 'slack:C1']);
    await free.next((e) => e.event === 'end');
  });

  it('a holder killed with kill -9 frees the session for the next run at once', async () => {
    const a = startWorker(['session', pgServer.server.url, 'discord:42', '60000']);
    await a.next((e) => e.event === 'start');
    a.child.kill('SIGKILL');
    await a.exited;
    const ran = await leases.runExclusive('discord:42', async () => 'ran');
    expect(ran).toBe('ran');
  });

  it('a run whose lease connection is cut is aborted (another instance may take the session)', async () => {
    const run = leases.runExclusive(
      'telegram:chat-9',
      (signal) =>
        new Promise<string>((resolve) => {
          signal.addEventListener('abort', () => resolve(String((signal.reason as Error).message)));
        }),
    );
    await waitForLock(pool, 1);
    await pool.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'hermes session leases'",
    );
    expect(await run).toMatch(/^session lease for telegram:chat-9 lost: /);
    // the session is free again
    expect((await leases.tryRunExclusive('telegram:chat-9', async () => 1)).ran).toBe(true);
  });

  it('a throwing run releases the session and passes the error on', async () => {
    await expect(
      leases.runExclusive('api:x', async () => {
        throw new Error('model down');
      }),
    ).rejects.toThrow('model down');
    expect(await leases.tryRunExclusive('api:x', async () => 'again')).toEqual({ ran: true, value: 'again' });
  });
});

/** Waits until `count` advisory locks are granted (the lease under test is in place). */
async function waitForLock(pool: pg.Pool, count: number): Promise<void> {
  await waitFor(
    async () => {
      const res = await pool.query<{ n: string }>(
        "SELECT count(*)::text AS n FROM pg_locks WHERE locktype = 'advisory' AND granted",
      );
      return Number(res.rows[0]?.n) >= count;
    },
    { what: `${count} advisory locks granted` },
  );
}

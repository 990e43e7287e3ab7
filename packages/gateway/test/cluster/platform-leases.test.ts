// Platform leases against a real PostgreSQL: one holder per platform across processes, takeover
// within failover_s after `kill -9` of the holder, a lost connection is a lost lease.
import { openPgStore } from '@hermes/store';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresUnavailableReason, usePostgres } from '../../../../test/helpers/postgres.js';
import { waitFor } from '../../../../test/helpers/wait-for.js';
import { ClusterMembership, clusterMembers, platformHolders } from '../../src/cluster/membership.js';
import { PlatformLeases } from '../../src/cluster/platform-leases.js';
import { leaseTimings } from '../../src/cluster/timings.js';
import { startWorker, type Worker } from './worker-process.js';

const skip = postgresUnavailableReason() !== null;
const FAILOVER_S = 3;

describe.skipIf(skip)('platform leases (PostgreSQL)', () => {
  const pgServer = usePostgres();
  let pool: pg.Pool;
  const workers: Worker[] = [];

  beforeAll(async () => {
    // the cluster's tables come with the store's migrations, as every `gateway run` applies at start
    await (await openPgStore(pgServer.server.url)).close();
    pool = new pg.Pool({ connectionString: pgServer.server.url });
    // pool.end() does not wait for the sockets to close: the server's shutdown may still reach one
    pool.on('error', () => undefined);
  }, 60_000);
  afterAll(async () => {
    for (const w of workers) w.child.kill('SIGKILL');
    await pool?.end();
  });

  it('one process holds a platform; after kill -9 the other takes it over within failover_s', async () => {
    const a = startWorker(['platforms', pgServer.server.url, String(FAILOVER_S), 'A', 'telegram,discord']);
    workers.push(a);
    await a.next((e) => e.event === 'acquired' && e.platform === 'telegram');
    await a.next((e) => e.event === 'acquired' && e.platform === 'discord');
    const b = startWorker(['platforms', pgServer.server.url, String(FAILOVER_S), 'B', 'telegram,discord']);
    workers.push(b);
    await b.next((e) => e.event === 'started');
    // B has tried and failed: the leases are A's, as PostgreSQL's lock table says
    expect(b.events.filter((e) => e.event === 'acquired')).toEqual([]);
    expect(Object.fromEntries(await platformHolders(pool))).toEqual({ telegram: 'A', discord: 'A' });

    const killedAt = Date.now();
    a.child.kill('SIGKILL');
    const took = await b.next((e) => e.event === 'acquired' && e.platform === 'telegram', FAILOVER_S * 1000 + 5000);
    await b.next((e) => e.event === 'acquired' && e.platform === 'discord');
    expect(took.at - killedAt).toBeLessThan(FAILOVER_S * 1000);
    expect(Object.fromEntries(await platformHolders(pool))).toEqual({ telegram: 'B', discord: 'B' });
    // never two holders: A never got anything back after its death, B got each platform once
    expect(b.events.filter((e) => e.event === 'acquired').map((e) => e.platform)).toEqual(['telegram', 'discord']);
    // status: both members registered, the dead one holds nothing (read from PostgreSQL's locks)
    const members = await clusterMembers(pool);
    expect(members.find((m) => m.instanceId === 'A')?.platforms).toEqual([]);
    expect(members.find((m) => m.instanceId === 'B')).toMatchObject({
      alive: true,
      pid: b.child.pid,
      platforms: ['discord', 'telegram'],
    });
  });

  it('a holder whose connection is cut loses its leases at once (onLost) and takes them back', async () => {
    const events: string[] = [];
    const leases = new PlatformLeases({
      target: pgServer.server.url,
      instanceId: 'C',
      platforms: ['slack'],
      failoverS: FAILOVER_S,
      onAcquired: (p) => void events.push(`acquired ${p}`),
      onLost: async (p, reason) => {
        events.push(`lost ${p}: ${reason}`);
        // a slow stop, longer than a retry period: the platform is not taken again before it ends
        if (reason !== 'released') await new Promise((r) => setTimeout(r, leases.timings.retryMs * 2));
        events.push(`stopped ${p}`);
      },
    });
    await leases.start();
    expect(leases.holding()).toEqual(['slack']);
    // the server ends the lock connection (as on a PostgreSQL restart or failover)
    await pool.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'hermes C leases'",
    );
    await waitFor(() => events.length >= 4);
    expect(events[0]).toBe('acquired slack');
    expect(events[1]).toMatch(/^lost slack: (lease connection|PostgreSQL error)/);
    expect(events.slice(2, 4)).toEqual(['stopped slack', 'acquired slack']);
    await leases.stop();
    expect(events.slice(-2)).toEqual(['lost slack: released', 'stopped slack']);
    expect((await platformHolders(pool)).has('slack')).toBe(false);
  });

  it('a graceful stop hands the platform over without waiting for a timeout', async () => {
    const got: string[] = [];
    const first = new PlatformLeases({
      target: pgServer.server.url,
      instanceId: 'D',
      platforms: ['matrix'],
      onAcquired: () => void got.push('D'),
      onLost: () => undefined,
    });
    const second = new PlatformLeases({
      target: pgServer.server.url,
      instanceId: 'E',
      platforms: ['matrix'],
      failoverS: FAILOVER_S,
      onAcquired: () => void got.push('E'),
      onLost: () => undefined,
    });
    await first.start();
    await second.start();
    expect(got).toEqual(['D']);
    await first.stop();
    await waitFor(() => got.length === 2);
    expect(got).toEqual(['D', 'E']);
    await second.stop();
  });

  it('membership: a graceful stop deregisters the instance', async () => {
    const membership = new ClusterMembership({ pool, instanceId: 'M', heartbeatMs: 200 });
    await membership.start();
    expect((await clusterMembers(pool)).find((m) => m.instanceId === 'M')).toMatchObject({
      alive: true,
      pid: process.pid,
      platforms: [],
    });
    await membership.stop();
    expect((await clusterMembers(pool)).some((m) => m.instanceId === 'M')).toBe(false);
  });
});

describe('lease timings', () => {
  it('failover_s 10: retries every 2 s, and PostgreSQL drops a silent holder only after it has given up', () => {
    const t = leaseTimings(10);
    expect(t.retryMs).toBe(2000);
    const serverDropS = t.keepalive.idleS + t.keepalive.intervalS * t.keepalive.count;
    expect(serverDropS * 1000).toBeGreaterThan(t.retryMs + t.checkTimeoutMs);
    expect(serverDropS * 1000 + t.retryMs).toBeLessThanOrEqual(10_000);
  });

  it('refuses a failover below one second, naming the key', () => {
    expect(() => leaseTimings(0)).toThrow(/gateway\.cluster\.failover_s/);
  });
});

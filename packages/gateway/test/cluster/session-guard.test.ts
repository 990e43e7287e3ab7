// The cluster's session guard when PostgreSQL gives no lease connection (refused, as when it has
// too many clients): the turn runs anyway, once, rather than a job that never runs (an API
// request that would hang); an error of the turn itself is passed on, never run twice. The idle
// sweep's tryRun never touches a session without its lease: skipped when there is none to be had
// or another instance holds it.
import { silentLogger } from '@hermes/protocol';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresUnavailableReason, usePostgres } from '../../../../test/helpers/postgres.js';
import { ClusterNode } from '../../src/cluster/cluster-node.js';
import { SessionLeases } from '../../src/cluster/session-leases.js';

// nothing listens on port 1 of 127.0.0.1: every connection is refused at once
const url = 'postgres://hermes:pw@127.0.0.1:1/hermes';
const pool = new pg.Pool({ connectionString: url });
pool.on('error', () => undefined);
const node = new ClusterNode({
  pool,
  inbox: { claimUnfinished: async () => [] },
  target: url,
  instanceId: 'gw-test',
  failoverS: 2,
  reloadState: async () => undefined,
  maxConcurrentRuns: 2,
  applySetting: () => undefined,
  logger: silentLogger,
});
afterAll(async () => {
  await pool.end();
});

describe('session guard without PostgreSQL', () => {
  it('runs the turn once without the lease when no lease connection can be had', async () => {
    let runs = 0;
    await node.sessionGuard.run(
      'api:chat-1',
      async () => {
        runs += 1;
      },
      { interrupt: true },
    );
    expect(runs).toBe(1);
  });

  it('the idle sweep skips a session (tryRun false) when no lease connection can be had', async () => {
    let runs = 0;
    expect(await node.sessionGuard.tryRun('api:chat-1', async () => void runs++)).toBe(false);
    expect(runs).toBe(0);
  });

  it('treats only sessions of platforms without a held connection as shared', () => {
    expect(node.sessionGuard.shared('api:chat-1')).toBe(true);
    expect(node.sessionGuard.shared('telegram:42:dm')).toBe(true); // no adapter holds a connection yet
  });
});

describe.skipIf(postgresUnavailableReason() !== null)('session guard tryRun (PostgreSQL)', () => {
  const pgServer = usePostgres();
  let real: ClusterNode;
  let realPool: pg.Pool;
  let other: SessionLeases;

  beforeAll(async () => {
    realPool = new pg.Pool({ connectionString: pgServer.server.url });
    realPool.on('error', () => undefined);
    real = new ClusterNode({
      pool: realPool,
      target: pgServer.server.url,
      inbox: { claimUnfinished: async () => [] },
      instanceId: 'gw-sweeper',
      failoverS: 2,
      reloadState: async () => undefined,
      maxConcurrentRuns: 2,
      applySetting: () => undefined,
      logger: silentLogger,
    });
    other = new SessionLeases({ target: pgServer.server.url, checkIntervalMs: 200 });
  }, 60_000);
  afterAll(async () => {
    await other?.close();
    await real?.stop();
    await realPool?.end();
  });

  it('runs under the lease when it is free, skips the session while another instance holds it', async () => {
    let runs = 0;
    expect(await real.sessionGuard.tryRun('api:k1', async () => void runs++)).toBe(true);
    expect(runs).toBe(1);
    let release = () => undefined as void;
    let held = () => undefined as void;
    const holding = new Promise<void>((r) => (held = r));
    const elsewhere = other.runExclusive('api:k1', () => {
      held();
      return new Promise<void>((r) => (release = r));
    });
    await holding;
    expect(await real.sessionGuard.tryRun('api:k1', async () => void runs++)).toBe(false);
    expect(runs).toBe(1);
    release();
    await elsewhere;
    expect(await real.sessionGuard.tryRun('api:k1', async () => void runs++)).toBe(true);
    expect(runs).toBe(2);
  });
});

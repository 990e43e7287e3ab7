// The cluster's session guard when PostgreSQL gives no lease connection (refused, as when it has
// too many clients): the turn runs anyway, once, rather than a job that never runs (an API
// request that would hang); an error of the turn itself is passed on, never run twice.
import { silentLogger } from '@hermes/protocol';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { ClusterNode } from '../../src/cluster/cluster-node.js';

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

  it('treats only sessions of platforms without a held connection as shared', () => {
    expect(node.sessionGuard.shared('api:chat-1')).toBe(true);
    expect(node.sessionGuard.shared('telegram:42:dm')).toBe(true); // no adapter holds a connection yet
  });
});

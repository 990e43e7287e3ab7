// The gateway's store seam: the SQLite store behind the asynchronous GatewayStore ports (the
// PostgreSQL side, the cluster's store: test/cluster/gateway-postgres.test.ts).
import { GatewayMetrics } from '@hermes/gateway';
import { asyncSqliteStore, openStore } from '@hermes/store';
import { describe, expect, it } from 'vitest';
import { gatewayStoreFor } from '../src/gateway-store-setup.js';

describe('gatewayStoreFor', () => {
  it('on SQLite: the GatewayStore over the synchronous store (the same rows)', async () => {
    const sqlite = openStore(':memory:');
    try {
      // the SQLite branch reads only the stores
      const rt = { store: asyncSqliteStore(sqlite), sqlite } as Parameters<typeof gatewayStoreFor>[0];
      const { gatewayStore, cluster } = await gatewayStoreFor(rt, new GatewayMetrics());
      expect(cluster).toBeNull();
      const created = await gatewayStore.sessions.create({ key: 'telegram:dm:1', platform: 'telegram' });
      expect(sqlite.sessions.get(created.id)?.sessionKey).toBe('telegram:dm:1');
    } finally {
      sqlite.close();
    }
  });
});

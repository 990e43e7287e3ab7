// The gateway's store seam: the SQLite store behind the asynchronous GatewayStore ports; on
// PostgreSQL a configuration error until pgGatewayStore is wired in (that case changes then).
import { asyncSqliteStore, openStore } from '@hermes/store';
import { describe, expect, it } from 'vitest';
import { gatewayStoreFor } from '../src/gateway-store-setup.js';

describe('gatewayStoreFor', () => {
  it('on SQLite: the GatewayStore over the synchronous store (the same rows)', async () => {
    const sqlite = openStore(':memory:');
    try {
      const gatewayStore = gatewayStoreFor({ store: asyncSqliteStore(sqlite), sqlite });
      const created = await gatewayStore.sessions.create({ key: 'telegram:dm:1', platform: 'telegram' });
      expect(sqlite.sessions.get(created.id)?.sessionKey).toBe('telegram:dm:1');
    } finally {
      sqlite.close();
    }
  });

  it('on PostgreSQL: a CONFIG_KEY HermesError saying it is not wired yet, naming the masked database', () => {
    const pgLike = { ...asyncSqliteStore(openStore(':memory:')), backend: 'postgres' as const };
    const store = { ...pgLike, location: 'postgres://hermes:***@127.0.0.1:5432/hermes' };
    expect(() => gatewayStoreFor({ store, sqlite: null })).toThrow(
      expect.objectContaining({
        code: 'HERMES_CONFIG_KEY',
        message: expect.stringMatching(/^gateway run on PostgreSQL: not wired yet .*postgres:\/\/hermes:\*\*\*@/),
      }),
    );
  });
});

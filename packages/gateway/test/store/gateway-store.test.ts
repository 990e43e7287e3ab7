// The gateway's store over either backend (`gatewayStore`): its units commit as this instance (the
// rows it accepts carry its id on PostgreSQL, none on state.db), and PostgreSQL's in-memory copy of
// the adapters' state follows what the committed units wrote, in the order they were issued (the
// ordering itself is the store's: packages/store/test/contract/unit-of-work.test.ts).
import { silentLogger } from '@hermes/protocol';
import { asyncSqliteStore, openPgStore, openStore, type PgStore, type StoreWrite } from '@hermes/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresUnavailableReason, usePostgres } from '../../../../test/helpers/postgres.js';
import { gatewayStore } from '../../src/store/gateway-store.js';
import { PlatformStateCache } from '../../src/store/platform-state-cache.js';

describe('gatewayStore on SQLite', () => {
  it('commits through the store; the adapters read the repository; accepted rows have no owner', async () => {
    const sqlite = openStore(':memory:');
    try {
      const store = gatewayStore(asyncSqliteStore(sqlite), { adapterState: sqlite.platformState });
      const [accepted] = await store.commit([
        { kind: 'inbox.accept', platform: 'telegram', key: '1', payload: {}, state: { offset: '2' } },
      ]);
      expect(store.adapterState.get('telegram', 'offset')).toBe('2');
      expect((await store.inbox.claimUnfinished({})).map((r) => [r.id, r.owner])).toEqual([
        [(accepted as { id: number }).id, null],
      ]);
    } finally {
      sqlite.close();
    }
  });
});

describe.skipIf(postgresUnavailableReason() !== null)('gatewayStore on PostgreSQL', () => {
  const pgServer = usePostgres();
  let pg: PgStore;

  beforeAll(async () => {
    pg = await openPgStore(await pgServer.server.newDatabase('gwstore'));
  }, 60_000);
  afterAll(async () => {
    await pg?.close();
  });

  it('the in-memory adapter state follows committed units in the order they were issued', async () => {
    const adapterState = new PlatformStateCache(pg.platformState, silentLogger);
    await adapterState.load();
    const store = gatewayStore(pg, { adapterState, owner: 'gw-1' });
    for (let round = 0; round < 3; round += 1) {
      const slow: StoreWrite[] = Array.from({ length: 40 }, (_, i) => ({
        kind: 'platformState.set',
        platform: 'discord',
        key: `filler:${i}`,
        value: String(round),
      }));
      slow.push({ kind: 'platformState.set', platform: 'discord', key: 'catch_up', value: `first-${round}` });
      const quick: StoreWrite[] = [
        { kind: 'platformState.set', platform: 'discord', key: 'catch_up', value: `second-${round}` },
      ];
      await Promise.all([store.commit(slow), store.commit(quick)]);
      expect(adapterState.get('discord', 'catch_up')).toBe(`second-${round}`);
    }
    await store.commit([
      { kind: 'inbox.accept', platform: 'telegram', key: 'o-1', payload: {}, state: { offset: '9' } },
      { kind: 'platformState.delete', platform: 'discord', key: 'catch_up' },
    ]);
    expect(adapterState.get('telegram', 'offset')).toBe('9');
    expect(adapterState.get('discord', 'catch_up')).toBeUndefined();
    // a second instance loading the database sees what the first committed
    const other = new PlatformStateCache(pg.platformState, silentLogger);
    await other.load();
    expect(other.get('telegram', 'offset')).toBe('9');
  });

  it('an accepted row carries the instance as its owner; a failed unit does not stop the next', async () => {
    const adapterState = new PlatformStateCache(pg.platformState, silentLogger);
    const store = gatewayStore(pg, { adapterState, owner: 'gw-7' });
    const bad = store.commit([
      { kind: 'transcripts.append', sessionId: 'no-such-session', messages: [{ role: 'user', content: 'x' }] },
      { kind: 'platformState.set', platform: 'api', key: 'never', value: 'x' },
    ]);
    const good = store.commit([{ kind: 'inbox.accept', platform: 'api', key: 'k-1', payload: { text: 'hi' } }]);
    await expect(bad).rejects.toThrow(/unknown session/);
    expect(adapterState.get('api', 'never')).toBeUndefined();
    const [accepted] = await good;
    expect(accepted).toEqual({ accepted: true, id: expect.any(Number) });
    expect((await pg.inbox.get((accepted as { id: number }).id))?.owner).toBe('gw-7');
  });
});

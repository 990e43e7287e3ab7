// The gateway's PostgreSQL store commits units of work in the order they were issued, as the
// SQLite group commit does: a later unit never lands before an earlier one (a platform's state
// written whole by successive accepts: Discord's list of catch-up channels lost a channel when a
// slow earlier unit committed after a quick later one, and a message sent in the gap was never
// caught up).
import { silentLogger } from '@hermes/protocol';
import { openPgStore, type PgStore } from '@hermes/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresUnavailableReason, usePostgres } from '../../../../test/helpers/postgres.js';
import { pgGatewayStore } from '../../src/store/pg-gateway-store.js';
import type { StoreWrite } from '../../src/store/unit-of-work.js';

describe.skipIf(postgresUnavailableReason() !== null)('pgGatewayStore (PostgreSQL)', () => {
  const pgServer = usePostgres();
  let store: PgStore;

  beforeAll(async () => {
    store = await openPgStore(await pgServer.server.newDatabase('gwstore'));
  }, 60_000);
  afterAll(async () => {
    await store?.close();
  });

  it('commits units in the order they were issued, however long each takes', async () => {
    const gateway = pgGatewayStore(store, { instanceId: 'gw-1', logger: silentLogger });
    for (let round = 0; round < 5; round += 1) {
      // a slow unit (many writes) issued first, a quick one right after, neither awaited in between
      const slow: StoreWrite[] = Array.from({ length: 60 }, (_, i) => ({
        kind: 'platformState.set',
        platform: 'discord',
        key: `filler:${i}`,
        value: String(round),
      }));
      slow.push({ kind: 'platformState.set', platform: 'discord', key: 'catch_up_channels', value: `first-${round}` });
      const quick: StoreWrite[] = [
        { kind: 'platformState.set', platform: 'discord', key: 'catch_up_channels', value: `second-${round}` },
      ];
      await Promise.all([gateway.commit(slow), gateway.commit(quick)]);
      expect(await store.platformState.get('discord', 'catch_up_channels')).toBe(`second-${round}`);
      expect(gateway.platformState.get('discord', 'catch_up_channels')).toBe(`second-${round}`);
    }
  });

  it('an accepted row carries the instance as its owner; a failed unit does not stop the next', async () => {
    const gateway = pgGatewayStore(store, { instanceId: 'gw-7', logger: silentLogger });
    const bad = gateway.commit([
      { kind: 'transcripts.append', sessionId: 'no-such-session', messages: [{ role: 'user', content: 'x' }] },
    ]);
    const good = gateway.commit([{ kind: 'inbox.accept', platform: 'api', key: 'k-1', payload: { text: 'hi' } }]);
    await expect(bad).rejects.toThrow(/unknown session/);
    const [accepted] = await good;
    expect(accepted).toEqual({ accepted: true, id: expect.any(Number) });
    const id = (accepted as { id: number }).id;
    expect((await store.inbox.get(id))?.owner).toBe('gw-7');
  });
});

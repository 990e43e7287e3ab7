// Unfinished inbox rows shared by several instances on PostgreSQL (`inbox.claimUnfinished`, what
// the gateway's ClusterNode runs at start, on taking a platform over, and every retry period): an instance resumes rows nobody owns
// and, at start, its own; later, rows of instances that stopped beating or left; never rows of a
// live instance, never a finished row, never another platform's; two claimers never share a row.
import { openPgStore, type PgStore } from '@hermes/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresUnavailableReason, usePostgres } from '../../../test/helpers/postgres.js';
import { waitFor } from '../../../test/helpers/wait-for.js';

const skip = postgresUnavailableReason() !== null;

describe.skipIf(skip)('inbox claims (PostgreSQL)', () => {
  const pgServer = usePostgres();
  let store: PgStore;

  beforeAll(async () => {
    store = await openPgStore(await pgServer.server.newDatabase('claims'));
  }, 60_000);
  afterAll(async () => {
    await store?.close();
  });

  async function accept(key: string, owner: string | null, platform = 'telegram'): Promise<number> {
    const result = await store.inbox.accept(platform, key, { key }, owner === null ? {} : { owner });
    if (!result.accepted) throw new Error('duplicate');
    return result.id;
  }

  async function member(id: string, ageS: number): Promise<void> {
    await store.pool.query(
      `INSERT INTO hermes_cluster_members (instance_id, host, pid, started_at, heartbeat_at)
       VALUES ($1, 'h', 1, now(), now() - make_interval(secs => $2))`,
      [id, ageS],
    );
  }

  it('start: rows nobody owns and this id owned; orphans: rows of dead or departed instances', async () => {
    await member('alive', 0);
    await member('dead', 60);
    const none = await accept('none', null);
    const mine = await accept('mine', 'me');
    const alive = await accept('alive', 'alive');
    const dead = await accept('dead', 'dead');
    const gone = await accept('gone', 'gone');
    const done = await accept('done', 'gone');
    await store.inbox.mark(done, 'done');
    const other = await accept('slack-dead', 'dead', 'slack');

    const start = await store.inbox.claimUnfinished({ owner: 'me', platforms: ['telegram'], from: 'start' });
    expect(start.map((r) => r.id)).toEqual([none, mine]);
    expect(start.every((r) => r.owner === 'me')).toBe(true);

    const orphans = await store.inbox.claimUnfinished({
      owner: 'me',
      platforms: ['telegram'],
      from: 'orphans',
      staleMs: 10_000,
    });
    expect(orphans.map((r) => r.id)).toEqual([dead, gone]);
    // claimed rows are this instance's now: a second sweep takes nothing, a live owner keeps its row
    expect(
      await store.inbox.claimUnfinished({
        owner: 'me',
        platforms: ['telegram'],
        from: 'orphans',
        staleMs: 10_000,
      }),
    ).toEqual([]);
    expect((await store.inbox.get(alive))?.owner).toBe('alive');
    expect((await store.inbox.get(other))?.owner).toBe('dead');
    expect(await store.inbox.claimUnfinished({ owner: 'me', platforms: [], from: 'orphans' })).toEqual([]);
  });

  it('start: rows this id accepted since the process started are its own running ones, not leftovers', async () => {
    const before = await accept('before-start', 'restarted', 'slack');
    const startedAt = Date.now() + 1;
    await waitFor(() => Date.now() > startedAt, { what: 'the clock past the start', stepMs: 1 });
    const running = await accept('running', 'restarted', 'slack');
    const claimed = await store.inbox.claimUnfinished({
      owner: 'restarted',
      platforms: ['slack'],
      from: 'start',
      acceptedBefore: startedAt,
    });
    expect(claimed.map((r) => r.id)).toContain(before);
    expect(claimed.map((r) => r.id)).not.toContain(running);
  });

  it('two instances claiming at once never get the same row', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 40; i += 1) ids.push(await accept(`race-${i}`, null, 'api'));
    const [a, b] = await Promise.all([
      store.inbox.claimUnfinished({ owner: 'a', platforms: ['api'], from: 'start' }),
      store.inbox.claimUnfinished({ owner: 'b', platforms: ['api'], from: 'start' }),
    ]);
    const claimed = [...a, ...b].map((r) => r.id).sort((x, y) => x - y);
    expect(claimed).toEqual(ids);
  });
});

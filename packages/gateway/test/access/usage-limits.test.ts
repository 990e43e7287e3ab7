// Budgets and rate limits per user on a real state.db: the minute window from the first turn, the
// UTC day's tokens and cost, per-user overrides, the reset time in the message, the metrics.
import { type AsyncStore, asyncSqliteStore, openPgStore, openStore } from '@hermes/store';
import { afterEach, describe, expect, it } from 'vitest';
import { postgresUnavailableReason, usePostgres } from '../../../../test/helpers/postgres.js';
import type { AccessSettings, UsageLimits } from '../../src/access/access-settings.js';
import { admitTurn, type LimitName, recordUsage, type UsagePorts } from '../../src/access/usage-limits.js';

const T0 = Date.UTC(2026, 0, 10, 12, 0, 0);
const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

function setUp(user: UsageLimits, users: AccessSettings['users'] = {}, given?: AsyncStore) {
  const store = given ?? asyncSqliteStore(openStore(':memory:'));
  opened.push(store);
  const clock = { t: T0 };
  const events: string[] = [];
  const settings: AccessSettings = {
    admins: [],
    tiers: {
      admin: { toolsets: ['*'], excludeTools: [], excludeCommands: [], limits: {} },
      user: { toolsets: ['*'], excludeTools: [], excludeCommands: [], limits: user },
    },
    users,
    prices: { 'm-1': { inputPerMillion: 1_000, outputPerMillion: 2_000 } },
  };
  const ports: UsagePorts = {
    counters: store.usageCounters,
    settings,
    now: () => clock.t,
    metrics: {
      userTurn: (k, tier) => events.push(`turn ${k} ${tier}`),
      userUsage: (k, tokens, cost) => events.push(`usage ${k} ${tokens} ${cost}`),
      userLimited: (k, limit: LimitName) => events.push(`limited ${k} ${limit}`),
    },
  };
  return { ports, clock, events };
}

const bob = { key: 'telegram:2', tier: 'user' as const };
const usage = (prompt: number, completion: number) => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
});

describe('usage limits', () => {
  it('turns per minute: refused past the limit until a minute after the window began', async () => {
    const { ports, clock, events } = setUp({ turnsPerMinute: 2 });
    expect(await admitTurn(ports, bob)).toEqual({ ok: true });
    clock.t += 20_000;
    expect(await admitTurn(ports, bob)).toEqual({ ok: true });
    clock.t += 10_000;
    expect(await admitTurn(ports, bob)).toEqual({
      ok: false,
      limit: 'turns_per_minute',
      text: 'You have reached your limit of 2 turns a minute. It resets in 30 s (at 12:01:00 UTC).',
      retryAfterS: 30,
    });
    // another user has their own window; an admin has no limit
    expect(await admitTurn(ports, { key: 'telegram:3', tier: 'user' })).toEqual({ ok: true });
    for (let i = 0; i < 5; i++) expect((await admitTurn(ports, { key: 'telegram:1', tier: 'admin' })).ok).toBe(true);
    clock.t = T0 + 60_000;
    expect(await admitTurn(ports, bob)).toEqual({ ok: true });
    expect(events.filter((e) => e.startsWith('limited'))).toEqual(['limited telegram:2 turns_per_minute']);
    expect(events.filter((e) => e === 'turn telegram:2 user')).toHaveLength(3);
  });

  it('tokens and cost per UTC day: counted after the turn, refused before the next, reset at midnight', async () => {
    const { ports, clock, events } = setUp({ tokensPerDay: 1_000, costPerDay: 5 });
    expect((await admitTurn(ports, bob)).ok).toBe(true);
    await recordUsage(ports, bob, usage(600, 300), 'm-1'); // 900 tokens, cost 0.6 + 0.6 = 1.2
    expect(events).toContain('usage telegram:2 900 1.2');
    expect((await admitTurn(ports, bob)).ok).toBe(true);
    await recordUsage(ports, bob, usage(100, 50), 'unpriced'); // 1050 tokens: over
    const refused = await admitTurn(ports, bob);
    expect(refused).toEqual({
      ok: false,
      limit: 'tokens_per_day',
      text: 'You have reached your limit of 1000 tokens a day. It resets in 12 h 0 min (at 00:00:00 UTC).',
      retryAfterS: 12 * 3600,
    });
    clock.t = Date.UTC(2026, 0, 11, 0, 0, 1);
    expect((await admitTurn(ports, bob)).ok).toBe(true);
  });

  it('cost per day: from access.prices and the reported tokens; an unpriced model costs nothing', async () => {
    const { ports } = setUp({ costPerDay: 5 });
    for (let i = 0; i < 3; i++) await recordUsage(ports, bob, usage(100_000, 100_000), 'unpriced');
    expect((await admitTurn(ports, bob)).ok).toBe(true);
    // 3 turns of 1.8 on the priced model pass 5
    for (let i = 0; i < 3; i++) await recordUsage(ports, bob, usage(1_000, 400), 'm-1');
    expect(await admitTurn(ports, bob)).toMatchObject({ ok: false, limit: 'cost_per_day' });
  });

  it("a user's override replaces their tier's limit, key by key", async () => {
    const { ports } = setUp(
      { turnsPerMinute: 1, tokensPerDay: 10 },
      { 'telegram:2': { limits: { turnsPerMinute: 3 } } },
    );
    for (let i = 0; i < 3; i++) expect((await admitTurn(ports, bob)).ok).toBe(true);
    expect(await admitTurn(ports, bob)).toMatchObject({ ok: false, limit: 'turns_per_minute' });
    await recordUsage(ports, { key: 'telegram:9', tier: 'user' }, usage(8, 8), 'm-1');
    expect(await admitTurn(ports, { key: 'telegram:9', tier: 'user' })).toMatchObject({ limit: 'tokens_per_day' });
  });
});

describe.skipIf(postgresUnavailableReason() !== null)('usage limits on PostgreSQL', () => {
  const pg = usePostgres();

  it('two gateway instances on one database share the counts: 10 turns at once, 3 a minute, 3 admitted', async () => {
    const url = await pg.server.newDatabase('limits');
    const [a, b] = await Promise.all([
      openPgStore(url, { maxConnections: 3 }),
      openPgStore(url, { maxConnections: 3 }),
    ]);
    const one = setUp({ turnsPerMinute: 3 }, {}, a);
    const two = setUp({ turnsPerMinute: 3 }, {}, b);
    const admits = Array.from({ length: 10 }, (_, i) => admitTurn((i % 2 === 0 ? one : two).ports, bob));
    const results = await Promise.all(admits);
    expect(results.filter((r) => r.ok)).toHaveLength(3);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.limit === 'turns_per_minute')).toBe(true);
    // tokens one instance recorded limit the user on the other
    const day = { ...setUp({ tokensPerDay: 100 }, {}, a).ports };
    const other = setUp({ tokensPerDay: 100 }, {}, b).ports;
    await recordUsage(day, { key: 'slack:U5', tier: 'user' }, usage(80, 40), 'm-1');
    expect(await admitTurn(other, { key: 'slack:U5', tier: 'user' })).toMatchObject({ limit: 'tokens_per_day' });
  });
});

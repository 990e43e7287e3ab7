/**
 * Budgets and rate limits per user (docs/security.md "Tiers and budgets"): before a turn, the
 * user's day counter (tokens, cost) and minute counter (turns) in the store are checked; a user
 * over a limit gets a message saying when it resets, and no model request is made. After a turn,
 * the tokens the provider reported (and their cost, with a price for the model) are added.
 * `minute`: the window starts at the user's first turn and lasts 60 s; `day`: the UTC day.
 */
import type { TokenUsage } from '@hermes/agent';
import type { AsyncStore } from '@hermes/store';
import { type AccessSettings, limitsFor, type Tier, type UsageLimits } from './access-settings.js';

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

export type LimitName = 'turns_per_minute' | 'tokens_per_day' | 'cost_per_day';

/** Per-user series (hermes_user_*: one series per identity key that ran a turn). */
export interface UserMetricsSink {
  userTurn(userKey: string, tier: Tier): void;
  userUsage(userKey: string, tokens: number, cost: number): void;
  userLimited(userKey: string, limit: LimitName): void;
}

export interface UsagePorts {
  counters: AsyncStore['usageCounters'];
  settings: AccessSettings;
  /** the limits' clock (HERMES_LIMITS_CLOCK_*: test-only) */
  now(): number;
  metrics: UserMetricsSink;
}

export interface TurnUserRef {
  key: string;
  tier: Tier;
}

export type Admission =
  | { ok: true }
  /** `retryAfterS`: seconds until the limit resets (the API's Retry-After) */
  | { ok: false; limit: LimitName; text: string; retryAfterS: number };

const dayStart = (t: number) => Math.floor(t / DAY_MS) * DAY_MS;

function duration(ms: number): string {
  const s = Math.max(1, Math.ceil(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.ceil(s / 60);
  return m < 60 ? `${m} min` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

function resetText(now: number, resetsAt: number): string {
  const at = new Date(resetsAt).toISOString().slice(11, 19);
  return `It resets in ${duration(resetsAt - now)} (at ${at} UTC).`;
}

function refuse(ports: UsagePorts, user: TurnUserRef, limit: LimitName, what: string, resetsAt: number): Admission {
  ports.metrics.userLimited(user.key, limit);
  const now = ports.now();
  const retryAfterS = Math.max(1, Math.ceil((resetsAt - now) / 1000));
  return { ok: false, limit, text: `You have reached your limit of ${what}. ${resetText(now, resetsAt)}`, retryAfterS };
}

/** Whether `user` may start a turn now; counts the turn when they may (and when they are over turns per minute). */
export async function admitTurn(ports: UsagePorts, user: TurnUserRef): Promise<Admission> {
  const limits = limitsFor(ports.settings, user.key, user.tier);
  const now = ports.now();
  if (limits.tokensPerDay !== undefined || limits.costPerDay !== undefined) {
    const day = dayStart(now);
    const used = await ports.counters.get(user.key, 'day', day);
    if (limits.tokensPerDay !== undefined && (used?.tokens ?? 0) >= limits.tokensPerDay)
      return refuse(ports, user, 'tokens_per_day', `${limits.tokensPerDay} tokens a day`, day + DAY_MS);
    if (limits.costPerDay !== undefined && (used?.cost ?? 0) >= limits.costPerDay)
      return refuse(ports, user, 'cost_per_day', `${limits.costPerDay} (cost) a day`, day + DAY_MS);
  }
  if (limits.turnsPerMinute !== undefined) {
    // one statement: instances on one database count into the same row (refused attempts too,
    // which changes nothing: the window still ends a minute after its first turn)
    const c = await ports.counters.add(
      user.key,
      'minute',
      { start: now, staleBefore: now - MINUTE_MS + 1 },
      { turns: 1 },
    );
    if (c.turns > limits.turnsPerMinute)
      return refuse(
        ports,
        user,
        'turns_per_minute',
        `${limits.turnsPerMinute} turns a minute`,
        c.startedAt + MINUTE_MS,
      );
  }
  ports.metrics.userTurn(user.key, user.tier);
  return { ok: true };
}

/** The cost of `usage` on `model` (0 without a price for it). */
export function usageCost(settings: AccessSettings, model: string, usage: TokenUsage): number {
  const price = settings.prices[model];
  if (!price) return 0;
  return (usage.prompt_tokens * price.inputPerMillion + usage.completion_tokens * price.outputPerMillion) / 1e6;
}

const hasDayLimit = (l: UsageLimits) => l.tokensPerDay !== undefined || l.costPerDay !== undefined;

/** Adds a finished turn's reported usage to the user's day (stored only when a day limit applies to them). */
export async function recordUsage(
  ports: UsagePorts,
  user: TurnUserRef,
  usage: TokenUsage | null,
  model: string,
): Promise<void> {
  if (usage === null) return;
  const cost = usageCost(ports.settings, model, usage);
  ports.metrics.userUsage(user.key, usage.total_tokens, cost);
  if (!hasDayLimit(limitsFor(ports.settings, user.key, user.tier))) return;
  const day = dayStart(ports.now());
  await ports.counters.add(user.key, 'day', { start: day, staleBefore: day }, { tokens: usage.total_tokens, cost });
}

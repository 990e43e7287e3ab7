/** The access tiers' settings from config.yaml's `access` and `quick_commands` (docs/security.md "Tiers and budgets"). */
import type { HermesConfig } from '@hermes/config';

export type Tier = 'admin' | 'user';

/** A user's limits; an absent key is no limit. */
export interface UsageLimits {
  turnsPerMinute?: number;
  tokensPerDay?: number;
  costPerDay?: number;
}

export interface TierSettings {
  /** toolset or tool names the tier may use (`*`: every tool the gateway offers) */
  toolsets: readonly string[];
  /** tool names the tier never gets */
  excludeTools: readonly string[];
  /** chat commands the tier may not run (access.tiers.<tier>.exclude_commands) */
  excludeCommands: readonly string[];
  limits: UsageLimits;
}

export interface ModelPrice {
  inputPerMillion: number;
  outputPerMillion: number;
}

export interface AccessSettings {
  /** identity keys of the admins from config (gateway.admins) */
  admins: readonly string[];
  tiers: Readonly<Record<Tier, TierSettings>>;
  /** per-user overrides by identity key: each limit given replaces the tier's */
  users: Readonly<Record<string, { limits: UsageLimits }>>;
  /** price per million tokens by model id (cost_per_day) */
  prices: Readonly<Record<string, ModelPrice>>;
}

type ConfigLimits = HermesConfig['access']['tiers']['user']['limits'];

function limits(l: ConfigLimits): UsageLimits {
  return {
    ...(l.turns_per_minute !== undefined ? { turnsPerMinute: l.turns_per_minute } : {}),
    ...(l.tokens_per_day !== undefined ? { tokensPerDay: l.tokens_per_day } : {}),
    ...(l.cost_per_day !== undefined ? { costPerDay: l.cost_per_day } : {}),
  };
}

function tier(t: HermesConfig['access']['tiers']['user']): TierSettings {
  return {
    toolsets: t.toolsets,
    excludeTools: t.exclude_tools,
    excludeCommands: t.exclude_commands,
    limits: limits(t.limits),
  };
}

export function accessSettings(config: HermesConfig): AccessSettings {
  const a = config.access;
  return {
    admins: config.gateway.admins,
    tiers: { admin: tier(a.tiers.admin), user: tier(a.tiers.user) },
    users: Object.fromEntries(Object.entries(a.users).map(([key, u]) => [key, { limits: limits(u.limits) }])),
    prices: Object.fromEntries(
      Object.entries(a.prices).map(([model, p]) => [
        model,
        { inputPerMillion: p.input_per_million, outputPerMillion: p.output_per_million },
      ]),
    ),
  };
}

/** A user's limits: their tier's, each replaced by their own override when config gives one. */
export function limitsFor(settings: AccessSettings, userKey: string, tier: Tier): UsageLimits {
  return { ...settings.tiers[tier].limits, ...settings.users[userKey]?.limits };
}

/**
 * The access tiers as the gateway's stages use them: the tier of a job's user (command stage, turn
 * stage), their limits before a turn and their usage after it. Absent settings (a gateway built by
 * hand in a test): everyone is admin and nothing is limited.
 */
import type { TokenUsage } from '@hermes/agent';
import type { AsyncStore } from '@hermes/store';
import type { Env } from '../pipeline/allowlist.js';
import type { AccessSettings, Tier } from './access-settings.js';
import { tierResolver } from './tiers.js';
import { type Admission, admitTurn, recordUsage, type TurnUserRef, type UserMetricsSink } from './usage-limits.js';

export interface GatewayAccess {
  /** the user a job is for: identity key `<platform>:<userId>` and tier */
  userOf(who: { platform: string; userId: string }): Promise<TurnUserRef>;
  /** whether the user may start a turn now (counted when they may) */
  admit(user: TurnUserRef): Promise<Admission>;
  /** a finished turn's reported usage on `model` */
  record(user: TurnUserRef, usage: TokenUsage | null, model: string): Promise<void>;
  /** the chat commands `tier` may not run (access.tiers.<tier>.exclude_commands) */
  excludedCommands(tier: Tier): readonly string[];
}

export interface GatewayAccessPorts {
  settings: AccessSettings | undefined;
  env: Env;
  store: Pick<AsyncStore, 'pairing' | 'usageCounters'>;
  /** the limits' clock */
  now(): number;
  metrics: UserMetricsSink;
}

export function gatewayAccess(ports: GatewayAccessPorts): GatewayAccess {
  const { settings } = ports;
  const key = (who: { platform: string; userId: string }) => `${who.platform}:${who.userId}`;
  if (!settings) {
    return {
      userOf: async (who) => ({ key: key(who), tier: 'admin' }),
      admit: async () => ({ ok: true }),
      record: async () => {},
      excludedCommands: () => [],
    };
  }
  const tierOfUser = tierResolver({ env: ports.env, admins: settings.admins, pairing: ports.store.pairing });
  const usage = { counters: ports.store.usageCounters, settings, now: ports.now, metrics: ports.metrics };
  return {
    userOf: async (who) => ({ key: key(who), tier: await tierOfUser(who.platform, who.userId) }),
    admit: (user) => admitTurn(usage, user),
    record: (user, used, model) => recordUsage(usage, user, used, model),
    excludedCommands: (tier) => settings.tiers[tier].excludeCommands,
  };
}

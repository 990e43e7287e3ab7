/**
 * Who is an admin (docs/security.md "Tiers and budgets"). Always admins: the API platform's key
 * holder, the console operator (web chat `console:*`), cron jobs, gateway hooks and the CLI.
 * Configured admins: `gateway.admins` (identity keys), `GATEWAY_ADMIN_USERS` (identity keys) and
 * `<PLATFORM>_ADMIN_USERS` (user ids of that platform). With none configured, the owner is admin:
 * the first id of the platform's `<PLATFORM>_ALLOWED_USERS` (or of `GATEWAY_ALLOWED_USERS`), and,
 * when no allowlist names anyone, the first user approved by pairing. Everyone else is a `user`.
 */
import type { AsyncStore } from '@hermes/store';
import type { Env } from '../pipeline/allowlist.js';
import type { Tier } from './access-settings.js';

/** Surfaces whose caller is the operator (or acts for them): their turns run as admin. */
const OPERATOR_PLATFORMS: ReadonlySet<string> = new Set(['api', 'cron', 'gateway', 'cli']);

export interface TierPorts {
  env: Env;
  /** gateway.admins */
  admins: readonly string[];
  pairing: Pick<AsyncStore['pairing'], 'firstApproved'>;
}

function ids(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/** What env and config say about admins and owners, read once (the environment is the process's). */
interface AdminFacts {
  /** identity keys named by gateway.admins and GATEWAY_ADMIN_USERS */
  keys: ReadonlySet<string>;
  /** <PLATFORM>_ADMIN_USERS, per upper-case platform name */
  platformAdmins: ReadonlyMap<string, ReadonlySet<string>>;
  /** any admin named anywhere (then no owner default applies) */
  configured: boolean;
  /** any *_ALLOWED_USERS whose first entry names someone */
  allowlisted: boolean;
}

function adminFacts(ports: TierPorts): AdminFacts {
  const { env } = ports;
  const platformAdmins = new Map<string, ReadonlySet<string>>();
  let configured = ports.admins.length > 0;
  let allowlisted = false;
  for (const [k, v] of Object.entries(env)) {
    if (k.endsWith('_ADMIN_USERS') && ids(v).length > 0) {
      configured = true;
      platformAdmins.set(k.slice(0, -'_ADMIN_USERS'.length), new Set(ids(v)));
    }
    if (k.endsWith('_ALLOWED_USERS') && firstListed(v)) allowlisted = true;
  }
  return { keys: new Set([...ports.admins, ...ids(env.GATEWAY_ADMIN_USERS)]), platformAdmins, configured, allowlisted };
}

function firstListed(value: string | undefined): string | undefined {
  const first = ids(value)[0];
  return first === '*' ? undefined : first;
}

/** The tier of `platform`'s user `userId` (identity key `<platform>:<userId>`). */
export async function tierOf(ports: TierPorts, platform: string, userId: string): Promise<Tier> {
  return tierResolver(ports)(platform, userId);
}

/**
 * `tierOf` with env and config read once, for every message of a running gateway (a scan of the
 * environment per message costs more than the rest of the decision).
 */
export function tierResolver(ports: TierPorts): (platform: string, userId: string) => Promise<Tier> {
  const facts = adminFacts(ports);
  return (platform, userId) => resolveTier(ports, facts, platform, userId);
}

async function resolveTier(ports: TierPorts, facts: AdminFacts, platform: string, userId: string): Promise<Tier> {
  if (OPERATOR_PLATFORMS.has(platform)) return 'admin';
  if (platform === 'web' && userId.startsWith('console:')) return 'admin';
  const upper = platform.toUpperCase();
  if (facts.keys.has(`${platform}:${userId}`)) return 'admin';
  if (facts.platformAdmins.get(upper)?.has(userId)) return 'admin';
  if (facts.configured) return 'user';
  const { env } = ports;
  if (facts.allowlisted) {
    const owners = [firstListed(env[`${upper}_ALLOWED_USERS`]), firstListed(env.GATEWAY_ALLOWED_USERS)];
    return owners.includes(userId) ? 'admin' : 'user';
  }
  // one read per message, never cached: `hermes pairing approve` and revoke write from another process
  const first = await ports.pairing.firstApproved();
  return first?.platform === platform && first.userId === userId ? 'admin' : 'user';
}

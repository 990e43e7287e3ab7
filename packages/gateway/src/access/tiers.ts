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
  pairing: Pick<AsyncStore['pairing'], 'list'>;
}

function ids(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/** True when env or config names any admin (then no owner default applies). */
function adminsConfigured(ports: TierPorts): boolean {
  if (ports.admins.length > 0) return true;
  return Object.entries(ports.env).some(([k, v]) => k.endsWith('_ADMIN_USERS') && ids(v).length > 0);
}

function firstListed(value: string | undefined): string | undefined {
  const first = ids(value)[0];
  return first === '*' ? undefined : first;
}

/** The tier of `platform`'s user `userId` (identity key `<platform>:<userId>`). */
export async function tierOf(ports: TierPorts, platform: string, userId: string): Promise<Tier> {
  if (OPERATOR_PLATFORMS.has(platform)) return 'admin';
  if (platform === 'web' && userId.startsWith('console:')) return 'admin';
  const key = `${platform}:${userId}`;
  const { env } = ports;
  if (ports.admins.includes(key) || ids(env.GATEWAY_ADMIN_USERS).includes(key)) return 'admin';
  if (ids(env[`${platform.toUpperCase()}_ADMIN_USERS`]).includes(userId)) return 'admin';
  if (adminsConfigured(ports)) return 'user';
  const allowlists = Object.entries(env).filter(([k, v]) => k.endsWith('_ALLOWED_USERS') && firstListed(v));
  if (allowlists.length > 0) {
    const owners = [
      firstListed(env[`${platform.toUpperCase()}_ALLOWED_USERS`]),
      firstListed(env.GATEWAY_ALLOWED_USERS),
    ];
    return owners.includes(userId) ? 'admin' : 'user';
  }
  const { approved } = await ports.pairing.list();
  const first = approved.reduce<(typeof approved)[number] | undefined>(
    (a, b) => (a === undefined || b.approvedAt < a.approvedAt ? b : a),
    undefined,
  );
  return first?.platform === platform && first.userId === userId ? 'admin' : 'user';
}

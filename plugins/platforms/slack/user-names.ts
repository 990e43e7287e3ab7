/** Display names from users.info, cached; a failed lookup gives no name and never blocks a message. */
import type { Logger } from '@hermes/protocol';
import type { webApi } from '@slack/bolt';
import { describeError } from './error-text.js';

export const USER_NAME_TTL_MS = 60 * 60 * 1000;
/** a failed lookup (missing users:read scope, unknown user) is not retried before this */
export const USER_NAME_FAILURE_TTL_MS = 10 * 60 * 1000;
export const USER_NAME_CACHE_MAX = 5_000;
/** a message waits at most this long for a name; a slower lookup still fills the cache for the next one */
export const USER_NAME_WAIT_MS = 1_500;

export interface UserNames {
  /** the user's display name (or real name, or handle); undefined when unknown or not known in time */
  lookup(userId: string): Promise<string | undefined>;
}

interface Entry {
  name: string | undefined;
  expiresAt: number;
}

type UsersInfo = Awaited<ReturnType<webApi.WebClient['users']['info']>>;

function nameOf(result: UsersInfo): string | undefined {
  const user = result.user;
  const candidates = [user?.profile?.display_name, user?.profile?.real_name, user?.real_name, user?.name];
  return candidates.find((name): name is string => typeof name === 'string' && name.trim() !== '');
}

/** Creates the cache over `client`. */
export function createUserNames(client: webApi.WebClient, logger: Logger, now: () => number = Date.now): UserNames {
  const cache = new Map<string, Entry>();
  const pending = new Map<string, Promise<string | undefined>>();
  const store = (userId: string, name: string | undefined, ttlMs: number): void => {
    cache.delete(userId);
    cache.set(userId, { name, expiresAt: now() + ttlMs });
    if (cache.size > USER_NAME_CACHE_MAX) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
  };
  const withinWait = (lookup: Promise<string | undefined>): Promise<string | undefined> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), USER_NAME_WAIT_MS);
      timer.unref();
    });
    return Promise.race([lookup, late]).finally(() => clearTimeout(timer));
  };
  return {
    lookup(userId) {
      const hit = cache.get(userId);
      if (hit !== undefined && hit.expiresAt > now()) return Promise.resolve(hit.name);
      const running = pending.get(userId);
      if (running !== undefined) return withinWait(running);
      const lookup = client.users
        .info({ user: userId })
        .then(
          (result) => {
            const name = nameOf(result);
            store(userId, name, USER_NAME_TTL_MS);
            return name;
          },
          (error: unknown) => {
            logger.debug({ error: describeError(error), userId }, 'slack: users.info failed; no user name');
            store(userId, undefined, USER_NAME_FAILURE_TTL_MS);
            return undefined;
          },
        )
        .finally(() => pending.delete(userId));
      pending.set(userId, lookup);
      return withinWait(lookup);
    },
  };
}

/**
 * The threads the bot has posted in, so follow-ups there count as addressed to it: remembered in
 * the platform's persisted state (one small key per thread, so it survives restarts) behind a
 * bounded in-memory cache.
 */
import type { PlatformContext } from '@hermes/protocol';

export const ANSWERED_THREADS_CACHE_MAX = 10_000;

export interface AnsweredThreads {
  has(channel: string, threadTs: string): boolean;
  add(channel: string, threadTs: string): void;
}

const keyOf = (channel: string, threadTs: string): string => `thread:${channel}:${threadTs}`;

/** Creates the memory over `state`. */
export function createAnsweredThreads(
  state: PlatformContext['state'],
  cacheMax: number = ANSWERED_THREADS_CACHE_MAX,
): AnsweredThreads {
  const cache = new Set<string>();
  const remember = (key: string): void => {
    cache.add(key);
    if (cache.size > cacheMax) {
      const oldest = cache.values().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
  };
  return {
    has(channel, threadTs) {
      const key = keyOf(channel, threadTs);
      if (cache.has(key)) return true;
      if (state.get(key) === undefined) return false;
      remember(key);
      return true;
    },
    add(channel, threadTs) {
      const key = keyOf(channel, threadTs);
      if (cache.has(key)) return;
      remember(key);
      state.set(key, '1');
    },
  };
}

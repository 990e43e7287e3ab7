/**
 * The sync loop, the one owner of the connection: `GET /_matrix/client/v3/sync` long polls with the
 * `since` token persisted in platform state (`next_batch`). A batch's messages are each accepted
 * (stored in the inbox under their event id) before the token moves past them, so a restart
 * resumes where the last batch ended and a batch read twice (a crash in the middle) is answered
 * once. After a start or a failure the first sync asks with `timeout=0` (whatever is waiting,
 * at once), then long polls for `sync_timeout_ms`. A failure backs off (1 s doubling to 30 s, or
 * the server's `retry_after_ms`), with the status `error` meanwhile and `connected` once a sync
 * is read again.
 */
import { backoffDelayMs, type Sleep, type StatusTracker } from '@hermes/plugin-sdk';
import { isRecord, MatrixApiError } from './client.js';
import type { BotIdentity } from './identity.js';
import { type BatchDeps, readSyncBatch } from './sync-batch.js';

export const NEXT_BATCH_KEY = 'next_batch';

/**
 * What the sync asks for: no presence, account data or ephemeral events (typing, receipts); room
 * members loaded lazily (the room summary counts them); up to 100 timeline events a room.
 */
export const SYNC_FILTER = JSON.stringify({
  presence: { not_types: ['*'] },
  account_data: { not_types: ['*'] },
  room: {
    ephemeral: { not_types: ['*'] },
    account_data: { not_types: ['*'] },
    state: { lazy_load_members: true },
    timeline: { limit: 100, lazy_load_members: true },
  },
});

export interface SyncLoopDeps extends Omit<BatchDeps, 'signal'> {
  state: { get(key: string): string | undefined; set(key: string, value: string): void };
  status: StatusTracker;
  /** who the bot is (asked once the server answers) */
  identity: (signal: AbortSignal) => Promise<BotIdentity>;
  syncTimeoutMs: number;
  requestTimeoutMs: number;
  describe: (error: unknown) => string;
  sleep: Sleep;
  random: () => number;
  signal: AbortSignal;
}

/** A token as a server hands them out: short, printable, and one a URL can carry. */
function isToken(value: unknown): value is string {
  if (typeof value !== 'string' || value === '' || value.length > 1_000) return false;
  if ([...value].some((c) => c.charCodeAt(0) < 0x20)) return false;
  try {
    encodeURIComponent(value); // throws on a lone surrogate
    return true;
  } catch {
    return false;
  }
}

/** One sync: asked, read, the token stored. */
async function syncOnce(bot: BotIdentity, deps: SyncLoopDeps, wait: number, triedJoins: Set<string>): Promise<void> {
  const stored = deps.state.get(NEXT_BATCH_KEY);
  const since = stored === '' ? undefined : stored;
  let answer: unknown;
  try {
    answer = await deps.client.request('GET', '/_matrix/client/v3/sync', {
      query: { filter: SYNC_FILTER, timeout: String(since === undefined ? 0 : wait), since, set_presence: 'offline' },
      timeoutMs: wait + deps.requestTimeoutMs,
      signal: deps.signal,
    });
  } catch (error) {
    // a token the server no longer takes (its database was reset, the token came from another
    // server): asked again it would refuse it forever, so the next sync starts afresh
    if (since !== undefined && error instanceof MatrixApiError && error.status === 400) {
      deps.logger.warn(
        { error: error.message },
        'matrix: the server refused the stored sync token; starting afresh (messages since then are not answered)',
      );
      deps.state.set(NEXT_BATCH_KEY, '');
    }
    throw error;
  }
  const nextBatch = isRecord(answer) ? answer.next_batch : undefined;
  if (!isRecord(answer) || !isToken(nextBatch)) throw new Error('/sync answered without a usable next_batch token');
  await readSyncBatch(answer, since, bot, deps, triedJoins);
  if (deps.signal.aborted) return;
  deps.state.set(NEXT_BATCH_KEY, nextBatch);
}

/** Runs until the signal aborts: signs in, syncs, backs off on failures. */
export async function runSyncLoop(deps: SyncLoopDeps): Promise<void> {
  const { signal, status } = deps;
  const triedJoins = new Set<string>();
  let failures = 0;
  let caughtUp = false;
  let bot: BotIdentity | undefined;
  while (!signal.aborted) {
    try {
      bot ??= await deps.identity(signal);
      await syncOnce(bot, deps, caughtUp ? deps.syncTimeoutMs : 0, triedJoins);
      if (signal.aborted) return;
      failures = 0;
      caughtUp = true;
      status.set('connected');
    } catch (error) {
      if (signal.aborted) return;
      failures += 1;
      caughtUp = false;
      status.set('error', deps.describe(error));
      const asked = error instanceof MatrixApiError ? error.retryAfterMs : undefined;
      await deps.sleep(asked ?? backoffDelayMs(failures, deps.random), signal);
    }
  }
}

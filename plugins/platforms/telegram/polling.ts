/**
 * The long-polling loop, the one owner of reconnects: getUpdates from the persisted offset, each
 * update accepted by the sink before its offset is confirmed and persisted; errors back off.
 */

import { backoffDelayMs, type Sleep, type StatusTracker } from '@hermes/plugin-sdk';
import type { Logger, PlatformContext } from '@hermes/protocol';
import type { Api } from 'grammy';
import type { Update } from 'grammy/types';
import { groupAlbums } from './album.js';
import { describeError, retryAfterMs } from './error-text.js';
import { grammySignal } from './grammy-signal.js';
import { retryUntilDone } from './retry.js';

export const OFFSET_KEY = 'offset';
/** messages, and presses of approval buttons */
export const ALLOWED_UPDATES = ['message', 'callback_query'] as const;

export interface PollingOptions {
  api: Api;
  /** getMe and deleteWebhook: run (and retried) before the first getUpdates */
  prepare: (signal: AbortSignal) => Promise<void>;
  /**
   * resolves once the update is safely accepted, `state` (the next offset) persisted with it;
   * a rejection leaves the update unconfirmed
   */
  /** one update, or an album's consecutive updates (album.ts), accepted as one message */
  deliver: (updates: readonly Update[], signal: AbortSignal, state: Record<string, string>) => Promise<void>;
  state: PlatformContext['state'];
  status: StatusTracker;
  logger: Logger;
  pollTimeoutS: number;
  sleep: Sleep;
  random: () => number;
  signal: AbortSignal;
}

/** The persisted offset, or undefined when none is stored (or it is not a number). */
export function readOffset(state: PlatformContext['state']): number | undefined {
  const stored = state.get(OFFSET_KEY);
  return stored !== undefined && /^\d+$/.test(stored) ? Number(stored) : undefined;
}

/** Delivers `updates` in order, confirming each; returns the next offset and whether all were accepted. */
async function deliverAll(
  updates: readonly Update[],
  offset: number | undefined,
  options: PollingOptions,
): Promise<{ offset: number | undefined; accepted: boolean }> {
  let next = offset;
  for (const group of groupAlbums(updates)) {
    const update = group.at(-1) as Update;
    if (options.signal.aborted) return { offset: next, accepted: false };
    const following = String(update.update_id + 1);
    try {
      await options.deliver(group, options.signal, { [OFFSET_KEY]: following });
    } catch (error) {
      if (!options.signal.aborted) {
        options.logger.error(
          { error: describeError(error), updateId: update.update_id },
          'telegram: update not accepted; it will be fetched again',
        );
      }
      return { offset: next, accepted: false };
    }
    next = update.update_id + 1;
    // the sink stored it with the event already; this covers ignored updates and sinks without state
    options.state.set(OFFSET_KEY, following);
  }
  return { offset: next, accepted: true };
}

/** Polls until the signal aborts; resolves when the loop has exited. */
export async function runPolling(options: PollingOptions): Promise<void> {
  const { api, signal, status } = options;
  if (!(await retryUntilDone(() => options.prepare(signal), options))) return;
  status.set('connected');
  let offset = readOffset(options.state);
  let apiFailures = 0;
  let deliveryFailures = 0;
  while (!signal.aborted) {
    let updates: Update[];
    try {
      updates = await api.getUpdates(
        {
          ...(offset === undefined ? {} : { offset }),
          timeout: options.pollTimeoutS,
          allowed_updates: [...ALLOWED_UPDATES],
        },
        grammySignal(signal),
      );
    } catch (error) {
      if (signal.aborted) break;
      apiFailures += 1;
      status.set('error', describeError(error));
      await options.sleep(retryAfterMs(error) ?? backoffDelayMs(apiFailures, options.random), signal);
      continue;
    }
    apiFailures = 0;
    status.set('connected');
    const result = await deliverAll(updates, offset, options);
    offset = result.offset;
    if (result.accepted) {
      deliveryFailures = 0;
      continue;
    }
    if (signal.aborted) break;
    deliveryFailures += 1;
    await options.sleep(backoffDelayMs(deliveryFailures, options.random), signal);
  }
}

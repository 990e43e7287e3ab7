/** state.retention_days in the gateway: a prune at start, then one a day (the timer never keeps the process alive). */
import type { Logger, MaybePromise } from '@hermes/protocol';
import type { PruneCounts } from '@hermes/store';

/** The store's pruner: synchronous on SQLite, async on PostgreSQL. */
export interface PrunerPort {
  prune(before: number, options?: { dryRun?: boolean }): MaybePromise<PruneCounts>;
}

export const DAY_MS = 24 * 60 * 60 * 1000;

/** "3 sessions (120 messages), 40 inbox rows, …": every count, so a zero says it was checked. */
export function describePrune(counts: PruneCounts): string {
  return [
    `${counts.sessions} sessions (${counts.messages} messages)`,
    `${counts.inbox} inbox rows`,
    `${counts.outbox} outbox rows`,
    `${counts.pairingRequests} pairing requests`,
    `${counts.pairingFailures} pairing failures`,
  ].join(', ');
}

/** How often the gateway prunes after the start-up prune. */
export const PRUNE_INTERVAL_MS = DAY_MS;

/** Prunes now and every PRUNE_INTERVAL_MS; returns the stop function. A failed prune is logged, never thrown. */
export function startRetention(
  pruner: PrunerPort,
  days: number,
  logger: Logger,
  now: () => number = Date.now,
): { stop(): void } {
  const done = (counts: PruneCounts) =>
    logger.info({ retentionDays: days, ...counts }, `state pruned (idle > ${days} days): ${describePrune(counts)}`);
  const failed = (err: unknown) => logger.error({ err }, 'state prune failed');
  const run = () => {
    try {
      const counts = pruner.prune(now() - days * DAY_MS);
      // a synchronous pruner (SQLite) is logged at once, an async one (PostgreSQL) when it settles
      if (counts instanceof Promise) counts.then(done, failed);
      else done(counts);
    } catch (err) {
      failed(err);
    }
  };
  run();
  const timer = setInterval(run, PRUNE_INTERVAL_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

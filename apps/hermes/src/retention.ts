/** state.retention_days in the gateway: a prune at start, then one a day (the timer never keeps the process alive). */
import type { Logger } from '@hermes/protocol';
import type { PruneCounts, Pruner } from '@hermes/store';

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
  pruner: Pruner,
  days: number,
  logger: Logger,
  now: () => number = Date.now,
): { stop(): void } {
  const run = () => {
    try {
      const counts = pruner.prune(now() - days * DAY_MS);
      logger.info({ retentionDays: days, ...counts }, `state pruned (idle > ${days} days): ${describePrune(counts)}`);
    } catch (err) {
      logger.error({ err }, 'state prune failed');
    }
  };
  run();
  const timer = setInterval(run, PRUNE_INTERVAL_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/**
 * The gateway's graceful stop, in order: new messages are still accepted into the inbox but not
 * started (the next start answers them); the idle sweep stops; waiting parts of a paste are flushed;
 * running turns finish and deliver, up to `drainMs`; what still runs then is cut off and stays
 * pending for the next start (its queued jobs marked); one-shot runs are aborted; then the
 * platforms disconnect (each given `ADAPTER_STOP_TIMEOUT_MS`).
 */
import type { PlatformAdapter } from '@hermes/protocol';

export const ADAPTER_STOP_TIMEOUT_MS = 5_000;
/** how long the lanes get to settle after their turns were cut off */
const ABORTED_SETTLE_MS = 2_000;

export interface DrainPorts {
  sweep: { stop(): Promise<void> };
  batcher: { flushAll(): void };
  /** the messages still in the stages before the batcher */
  processing: () => readonly Promise<void>[];
  lanes: { idle(): Promise<void> };
  /** cuts off what still runs and finishes the jobs it drops (left pending) */
  abortAll(): Promise<unknown>;
  /** aborts the one-shot runs (gateway hooks' runAgent) */
  abortOneShots(): void;
  adapters: Iterable<PlatformAdapter>;
}

const within = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

export async function drain(ports: DrainPorts, drainMs: number): Promise<void> {
  await ports.sweep.stop();
  ports.batcher.flushAll(); // waiting parts of a paste are answered in the drain (else: at the next start)
  // messages still in the stages before the batcher reach it while draining: flushed then too
  const drained = Promise.all(ports.processing()).then(() => {
    ports.batcher.flushAll();
    return ports.lanes.idle();
  });
  await Promise.race([drained, within(drainMs)]);
  await ports.abortAll();
  ports.abortOneShots();
  await Promise.race([ports.lanes.idle(), within(ABORTED_SETTLE_MS)]);
  const stops = Promise.all([...ports.adapters].map((a) => a.stop().catch(() => undefined)));
  await Promise.race([stops, within(ADAPTER_STOP_TIMEOUT_MS)]);
}

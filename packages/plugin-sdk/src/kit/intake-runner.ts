/**
 * An adapter's intake loop from start() to stop(): started once, `start()` resolves when the status
 * reaches one of the ready states (default: connected, error) or the loop ends; `stop()` aborts it,
 * awaits it and every in-flight send and handler, then reports 'stopped'. A loop that throws is logged and shown as 'error'.
 */
import type { Logger, PlatformConnection } from '@hermes/protocol';
import type { InFlight } from './in-flight.js';
import type { StatusTracker } from './status-tracker.js';

export interface IntakeRunner {
  /** the running loop's signal: undefined before start(), aborted once stop() began */
  readonly signal: AbortSignal | undefined;
  start(loop: (signal: AbortSignal) => Promise<void>): Promise<void>;
  /** `closing` runs after the abort and before the loop is awaited (closing a socket the loop waits on) */
  stop(closing?: () => Promise<void>): Promise<void>;
}

export interface IntakeRunnerOptions {
  platform: string;
  logger: Logger;
  status: StatusTracker;
  inFlight: InFlight;
  /** an error's text for the log and the status (default: its message); redact secrets here */
  describe?: (error: unknown) => string;
  /** the states at which start() resolves (default: connected, error) */
  readyStates?: readonly PlatformConnection[];
}

/** Creates the runner; nothing runs before start(). */
export function createIntakeRunner(options: IntakeRunnerOptions): IntakeRunner {
  const { platform, logger, status, inFlight, readyStates = ['connected', 'error'] } = options;
  const describe = options.describe ?? ((error: unknown) => (error instanceof Error ? error.message : String(error)));
  let controller: AbortController | undefined;
  let running: Promise<void> | undefined;
  return {
    get signal() {
      return controller?.signal;
    },
    async start(loop) {
      if (running !== undefined) throw new Error(`${platform}: already started`);
      controller = new AbortController();
      status.set('connecting');
      running = loop(controller.signal).catch((error: unknown) => {
        logger.error({ error: describe(error) }, `${platform}: intake loop failed`);
        status.set('error', describe(error));
      });
      await Promise.race([status.when(readyStates), running]);
    },
    async stop(closing) {
      controller?.abort();
      await closing?.();
      await running;
      await inFlight.settled();
      running = undefined;
      status.set('stopped');
    },
  };
}

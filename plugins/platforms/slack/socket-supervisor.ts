/**
 * Socket Mode connection supervision: the one owner of reconnecting. The SDK's SocketModeClient runs
 * with autoReconnectEnabled off; its ping/pong check (a ping every third of the liveness bound, the
 * socket closed when no pong came within the bound) is the liveness probe, and this loop replaces a
 * closed socket: at once after a healthy connection, with backoff after failures. A socket is always
 * closed (forcibly when the peer is deaf) before the next one is opened, so there are never two.
 */

import { backoffDelayMs, type Sleep, type StatusTracker } from '@hermes/plugin-sdk';
import type { Logger } from '@hermes/protocol';
import type { SocketModeReceiver } from '@slack/bolt';
import { describeError, platformErrorOf, UNRECOVERABLE_AUTH_ERRORS } from './error-text.js';

export type SocketClient = SocketModeReceiver['client'];

/** how long a close handshake may take before the socket is terminated */
export const CLOSE_GRACE_MS = 1_000;

export interface SocketSupervisorOptions {
  client: SocketClient;
  status: StatusTracker;
  logger: Logger;
  /** the liveness bound: also the longest wait for a new socket's hello */
  livenessMs: number;
  sleep: Sleep;
  random: () => number;
  now: () => number;
}

export interface SocketSupervisor {
  /** connects and keeps a socket until `signal` aborts or the app token is refused */
  run(signal: AbortSignal): Promise<void>;
  /** closes the current socket (handshake, then forcibly); resolves once it is gone */
  close(): Promise<void>;
}

/** Resolves on the client's next 'disconnected' (emitted once its socket is destroyed); dispose() stops listening. */
function nextDisconnect(client: SocketClient): { promise: Promise<void>; dispose(): void } {
  let listener: () => void = () => {};
  const promise = new Promise<void>((resolve) => {
    listener = () => resolve();
    client.once('disconnected', listener);
  });
  return { promise, dispose: () => void client.removeListener('disconnected', listener) };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function whenAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/** Resolves when `start` resolves, rejects when it rejects or `ms` pass first. */
function connectWithin(start: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no hello within ${ms} ms`)), ms);
  });
  return Promise.race([start.then(() => undefined), timeout]).finally(() => clearTimeout(timer));
}

/** Creates the supervisor of one SocketModeClient. */
export function createSocketSupervisor(options: SocketSupervisorOptions): SocketSupervisor {
  const { client, status, logger } = options;
  // 'opening': apps.connections.open in flight (cannot be cancelled); 'socket': a socket exists
  let phase: 'idle' | 'opening' | 'socket' = 'idle';
  client.on('connecting', () => {
    phase = 'socket';
  });
  client.on('disconnected', () => {
    phase = 'idle';
  });

  const close = async (): Promise<void> => {
    // the URL request has a timeout: it ends in a socket (closed below) or in a failed start
    while (phase === 'opening') await delay(5);
    // 1st disconnect(): close frame and handshake; 2nd, on a CLOSING socket: the SDK terminates it
    for (let attempt = 0; attempt < 2 && phase === 'socket'; attempt += 1) {
      const closed = nextDisconnect(client);
      client.disconnect().catch(() => {});
      await Promise.race([closed.promise, delay(CLOSE_GRACE_MS)]);
      closed.dispose();
    }
    if (phase === 'socket') logger.error('slack: the socket did not close; giving up on it');
  };

  const connect = (): Promise<void> => {
    phase = 'opening';
    const starting = client.start();
    starting.catch(() => {
      if (phase === 'opening') phase = 'idle'; // apps.connections.open failed: no socket was made
    });
    return connectWithin(starting, options.livenessMs);
  };

  const run = async (signal: AbortSignal): Promise<void> => {
    let failures = 0;
    const aborted = whenAborted(signal); // one listener for the whole run, not one per connection
    while (!signal.aborted) {
      const closed = nextDisconnect(client);
      try {
        await connect();
        const connectedAt = options.now();
        status.set('connected');
        await Promise.race([closed.promise, aborted]);
        if (signal.aborted) return;
        status.set('connecting');
        // a socket that lived a while was healthy: replace it at once; a short-lived one counts as a failure
        const healthy = options.now() - connectedAt >= options.livenessMs;
        failures = healthy ? 0 : failures + 1;
        logger.info({ healthy }, 'slack: socket closed; reconnecting');
        if (failures > 0) await options.sleep(backoffDelayMs(failures, options.random), signal);
      } catch (error) {
        await close(); // never a second socket while the first may still be open
        closed.dispose();
        if (signal.aborted) return;
        const code = platformErrorOf(error);
        if (code !== undefined && UNRECOVERABLE_AUTH_ERRORS.has(code)) {
          status.set('error', `apps.connections.open refused the app token: ${code}`);
          logger.error(`slack: apps.connections.open refused SLACK_APP_TOKEN (${code}); not retrying`);
          return;
        }
        failures += 1;
        const reason = error === undefined ? 'socket closed before hello' : describeError(error);
        status.set('error', reason);
        logger.warn({ error: reason, attempt: failures }, 'slack: socket connect failed; retrying with backoff');
        await options.sleep(backoffDelayMs(failures, options.random), signal);
      }
    }
  };

  return { run, close };
}

/**
 * The first login, retried with backoff while it fails for a reason that may pass (network, 5xx).
 * Once logged in, discord.js owns the connection: it heartbeats, resumes and re-identifies by
 * itself; nothing here reconnects.
 */
import { type BackoffPolicy, backoffDelayMs, type Sleep, type StatusTracker } from '@hermes/plugin-sdk';
import type { Logger } from '@hermes/protocol';
import { type Client, DiscordAPIError, DiscordjsError, DiscordjsErrorCodes } from 'discord.js';
import type { ClientWatch } from './client-status.js';
import { describeError } from './error-text.js';

/** Login retries: 1 s doubling to 60 s (a refused login is usually an outage that takes a while). */
export const LOGIN_BACKOFF: BackoffPolicy = { baseMs: 1_000, capMs: 60_000 };

export interface ConnectOptions {
  token: string;
  /** a fresh client with the adapter's listeners attached, and the watch over its shard events */
  newClient(): { client: Client; watch: ClientWatch };
  status: StatusTracker;
  logger: Logger;
  sleep: Sleep;
  random: () => number;
  signal: AbortSignal;
}

function aborted(signal: AbortSignal): Promise<'aborted'> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve('aborted');
    else signal.addEventListener('abort', () => resolve('aborted'), { once: true });
  });
}

/** A failure no retry can fix: a refused token or an unrecoverable gateway close (bad intents, ...). */
export function isFatalLoginError(error: unknown, watch: ClientWatch): boolean {
  if (watch.fatalCloseCode() !== undefined) return true;
  if (error instanceof DiscordjsError && error.code === DiscordjsErrorCodes.TokenInvalid) return true;
  return error instanceof DiscordAPIError && (error.status === 401 || error.status === 403);
}

/** Resolves with the logged-in client; undefined when stopped or when the failure is fatal (status 'error'). */
export async function connect(options: ConnectOptions): Promise<Client | undefined> {
  const { signal, status, logger } = options;
  for (let attempt = 1; !signal.aborted; attempt++) {
    const { client, watch } = options.newClient();
    const login = client.login(options.token).then(() => 'ok' as const);
    let outcome: 'ok' | 'aborted';
    try {
      outcome = await Promise.race([login, aborted(signal)]);
    } catch (error) {
      // login() destroyed the client already
      if (signal.aborted) return undefined;
      const reason = describeError(error);
      if (isFatalLoginError(error, watch)) {
        status.set('error', `login refused: ${reason}`);
        logger.error({ error: reason }, 'discord: login refused; check DISCORD_BOT_TOKEN and the intents');
        return undefined;
      }
      const delay = backoffDelayMs(attempt, options.random, LOGIN_BACKOFF);
      status.set('error', `login failed: ${reason}`);
      logger.warn({ error: reason, retryInMs: delay }, 'discord: login failed; retrying');
      await options.sleep(delay, signal);
      continue;
    }
    if (outcome === 'aborted') {
      login.catch(() => undefined); // stop() destroys the client; its login may settle later
      return undefined;
    }
    return client;
  }
  return undefined;
}

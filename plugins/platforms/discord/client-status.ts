/** discord.js shard events → the adapter's status: discord.js alone reconnects and resumes; this only watches. */

import type { StatusTracker } from '@hermes/plugin-sdk';
import type { Logger } from '@hermes/protocol';
import { type Client, Events, GatewayCloseCodes } from 'discord.js';
import { describeError } from './error-text.js';

export interface ClientWatch {
  /** the close code of an unrecoverable gateway close (discord.js will not reconnect), if one happened */
  fatalCloseCode(): number | undefined;
}

function closeName(code: number): string {
  const name: unknown = GatewayCloseCodes[code];
  return typeof name === 'string' ? `${code} ${name}` : String(code);
}

/**
 * ready/resumed → connected; reconnecting → disconnected (discord.js resumes or re-identifies);
 * an unrecoverable close (bad token, disallowed intents, ...) → error. Events are ignored once
 * `active()` is false (after stop, or for a client that was replaced).
 */
export function watchClient(client: Client, status: StatusTracker, logger: Logger, active: () => boolean): ClientWatch {
  let fatal: number | undefined;
  client.on(Events.ShardReady, () => {
    if (active()) status.set('connected');
  });
  client.on(Events.ShardResume, (_shard, replayed) => {
    if (!active()) return;
    logger.debug({ replayed }, 'discord: session resumed');
    status.set('connected');
  });
  client.on(Events.ShardReconnecting, () => {
    if (active()) status.set('disconnected', 'gateway connection lost; discord.js is reconnecting');
  });
  client.on(Events.ShardDisconnect, (event) => {
    fatal = event.code;
    if (active()) status.set('error', `gateway closed with ${closeName(event.code)}; not reconnecting`);
  });
  client.on(Events.ShardError, (error) => {
    if (active()) logger.warn({ error: describeError(error) }, 'discord: gateway error');
  });
  client.on(Events.Warn, (message) => {
    if (active()) logger.warn({ warning: message }, 'discord: discord.js warning');
  });
  client.on(Events.Error, (error) => {
    if (active()) logger.error({ error: describeError(error) }, 'discord: client error');
  });
  return { fatalCloseCode: () => fatal };
}

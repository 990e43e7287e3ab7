/**
 * Who the bot is, for mentions and quotes (Signal names people by number and by UUID; a mention
 * often carries only the UUID): `account_uuid` when configured, else asked once of the daemon with
 * `getUserStatus` on the account's own number. A daemon that answers with an error leaves the UUID
 * unknown (mentions by number still count; a warning says so); one that does not answer throws, so
 * the event loop backs off and asks again.
 */
import type { Logger } from '@hermes/protocol';
import type { BotIdentity } from './envelope.js';
import { isRecord, type RpcClient, RpcError } from './rpc.js';

export async function resolveIdentity(
  rpc: RpcClient,
  account: string,
  configured: string | undefined,
  logger: Logger,
  signal: AbortSignal,
): Promise<BotIdentity> {
  if (configured !== undefined) return { account, uuid: configured };
  try {
    const answer = await rpc.call('getUserStatus', { recipient: [account] }, signal);
    const own = Array.isArray(answer)
      ? answer.find((entry) => isRecord(entry) && typeof entry.uuid === 'string')
      : undefined;
    const uuid = isRecord(own) && typeof own.uuid === 'string' ? own.uuid.toLowerCase() : undefined;
    if (uuid === undefined)
      logger.warn(
        {},
        "signal: the daemon did not say the account's UUID; mentions by UUID are not recognized (set gateway.platforms.signal.account_uuid)",
      );
    return { account, uuid };
  } catch (error) {
    if (!(error instanceof RpcError) || error.code === null) throw error;
    logger.warn(
      { error: error.message },
      "signal: could not ask the account's UUID; mentions by UUID are not recognized (set gateway.platforms.signal.account_uuid)",
    );
    return { account, uuid: undefined };
  }
}

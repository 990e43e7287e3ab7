/** The deferred response every slash command gets at once: Discord shows "Bot is thinking…" until the answer. */
import type { Logger } from '@hermes/protocol';
import { DiscordAPIError, type REST, Routes } from 'discord.js';
import { describeError } from './error-text.js';
import type { InboundCommand } from './payload.js';
import { DISCORD_ERROR } from './send-errors.js';

/** DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE */
export const DEFERRED_RESPONSE = 5;

/** Resolves true once acknowledged (or already acknowledged); false, logged, when Discord refused or was unreachable. */
export async function acknowledgeInteraction(rest: REST, command: InboundCommand, logger: Logger): Promise<boolean> {
  try {
    await rest.post(Routes.interactionCallback(command.id, command.token), {
      body: { type: DEFERRED_RESPONSE },
      auth: false,
    });
    return true;
  } catch (error) {
    if (error instanceof DiscordAPIError && error.code === DISCORD_ERROR.alreadyAcknowledged) return true;
    logger.warn({ error: describeError(error), interactionId: command.id }, 'discord: interaction not acknowledged');
    return false;
  }
}

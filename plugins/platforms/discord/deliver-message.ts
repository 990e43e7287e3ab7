/** One MESSAGE_CREATE end to end: channel kind, normalize, download its files, hand the event to the sink. */

import type { AttachmentFetcher, Sleep } from '@hermes/plugin-sdk';
import type { InboundSink, Logger } from '@hermes/protocol';
import { acceptEvent } from './accept-event.js';
import type { PendingAttachment } from './attachments.js';
import type { BotIdentity } from './bot-identity.js';
import type { CatchUpCursors } from './catch-up-cursors.js';
import { resolveChannelKind } from './channel-kind.js';
import { normalizeMessage } from './normalize.js';
import type { InboundMessage } from './payload.js';

export interface MessageDelivery {
  sink: InboundSink;
  bot: BotIdentity;
  logger: Logger;
  /** the bot's managed role in a guild, when known */
  botRoleId(guildId: string): string | undefined;
  /** a channel's Discord type (cache, then REST), undefined when it cannot be learned */
  channelType(channelId: string): Promise<number | undefined>;
  attachments: AttachmentFetcher<PendingAttachment>;
  sleep: Sleep;
  now: () => number;
  /** told the chat id of each user message about to be accepted */
  onUserMessage?(chatId: string): void;
  /** each channel's newest accepted message, stored with the accept (for the catch-up at start) */
  cursors?: CatchUpCursors;
}

/**
 * Resolves once the sink accepted the event (or the message needs no event). An attachment that
 * cannot be downloaded is delivered with `path: null` rather than blocking the chat.
 */
export async function deliverMessage(
  message: InboundMessage,
  raw: unknown,
  options: MessageDelivery,
  signal: AbortSignal,
): Promise<void> {
  const kind = await resolveChannelKind(message, options.channelType);
  const botRoleId = message.guildId === undefined ? undefined : options.botRoleId(message.guildId);
  const normalized = normalizeMessage(
    message,
    raw,
    { bot: options.bot, kind, ...(botRoleId === undefined ? {} : { botRoleId }) },
    options.now(),
  );
  if (normalized === null) return;
  const downloaded = await options.attachments.fetchAll(
    normalized.files,
    signal,
    (file) => ({ messageId: message.id, attachmentId: file.id }),
    normalized.event.source.userId, // a stranger's files are not stored
  );
  if (!downloaded) return; // stopped mid-download: nothing is delivered after stop()
  options.onUserMessage?.(message.channelId);
  const state = options.cursors?.stateWith(message.channelId, message.id, message.guildId);
  const accepted = await acceptEvent(options.sink, normalized.event, {
    logger: options.logger,
    sleep: options.sleep,
    signal,
    ...(state === undefined ? {} : { state }),
  });
  if (accepted) options.cursors?.advance(message.channelId, message.id, message.guildId);
}

/** OutboundMessage → a channel message, or an interaction's original response / followup; never throws. */
import type { Logger, OutboundMessage, SendResult } from '@hermes/protocol';
import { type REST, Routes } from 'discord.js';
import type { InteractionReplies, OpenInteraction } from './interaction-replies.js';
import { messageBody } from './message-body.js';
import { isInteractionGone, toSendFailure } from './send-errors.js';

export interface SendContext {
  rest: REST;
  replies: InteractionReplies;
  suppressEmbeds: boolean;
  logger: Logger;
}

function idOf(response: unknown): string | undefined {
  return typeof response === 'object' && response !== null && 'id' in response && typeof response.id === 'string'
    ? response.id
    : undefined;
}

function sent(response: unknown): SendResult {
  const id = idOf(response);
  return { ok: true, messageIds: id === undefined ? [] : [id] };
}

/** Posts to the channel (the thread's own channel for thread chats), as a reply to `replyToMessageId`. */
export async function sendToChannel(context: SendContext, message: OutboundMessage): Promise<SendResult> {
  const channelId = message.threadId ?? message.chatId;
  const body = messageBody(message.text, {
    suppressEmbeds: context.suppressEmbeds,
    ...(message.replyToMessageId === undefined ? {} : { replyTo: message.replyToMessageId }),
    ...(message.idempotencyKey === undefined ? {} : { nonce: message.idempotencyKey.slice(0, 25) }),
  });
  try {
    return sent(await context.rest.post(Routes.channelMessages(channelId), { body }));
  } catch (error) {
    return toSendFailure(error);
  }
}

/** Edits the deferred original response (first answer) or adds a followup; 'gone' when the token no longer works. */
async function answerInteraction(
  context: SendContext,
  interaction: OpenInteraction,
  text: string,
): Promise<SendResult | 'gone'> {
  if (!(await interaction.acknowledged)) return 'gone';
  const body = messageBody(text, { suppressEmbeds: context.suppressEmbeds });
  const options = { body, auth: false };
  try {
    if (!interaction.answered) {
      const route = Routes.webhookMessage(interaction.applicationId, interaction.token, '@original');
      const response = await context.rest.patch(route, options);
      interaction.answered = true;
      return sent(response);
    }
    return sent(await context.rest.post(Routes.webhook(interaction.applicationId, interaction.token), options));
  } catch (error) {
    return isInteractionGone(error) ? 'gone' : toSendFailure(error);
  }
}

/**
 * Sends one message. An answer to an open interaction goes through the interaction (one at a time
 * per interaction); when its token is gone the answer falls back to a plain channel message.
 */
export async function sendMessage(context: SendContext, message: OutboundMessage): Promise<SendResult> {
  const interaction = context.replies.target(message);
  if (interaction === undefined) return sendToChannel(context, message);
  const run = interaction.tail.then(() => answerInteraction(context, interaction, message.text));
  interaction.tail = run.catch(() => undefined);
  const result = await run;
  if (result !== 'gone') return result;
  context.replies.forget(interaction);
  context.logger.info({ chatId: message.chatId }, 'discord: interaction expired; answering in the channel instead');
  const { replyToMessageId: _interactionId, ...plain } = message;
  return sendToChannel(context, plain);
}

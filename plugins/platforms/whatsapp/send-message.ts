/**
 * Session messages to one user through POST /{phone-number-id}/messages: text, a reaction on the
 * user's message, and the read mark with the typing indicator. Each answers a SendResult (the
 * message's `wamid` on success) and never throws.
 */
import type { OutboundMessage, Reaction, SendResult } from '@hermes/protocol';
import type { GraphClient } from './graph-api.js';
import { toSendFailure } from './send-errors.js';

export interface Sender {
  graph: GraphClient;
  phoneNumberId: string;
}

/** The wamid of a sent message from the API's answer (`messages[0].id`). */
function sentId(answer: Record<string, unknown>): string | undefined {
  const first = Array.isArray(answer.messages) ? (answer.messages[0] as unknown) : undefined;
  const id = typeof first === 'object' && first !== null ? (first as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : undefined;
}

/** Posts one message object (its `type` and content) to `to`; the result names its wamid. */
export async function postMessage(
  sender: Sender,
  to: string,
  content: Record<string, unknown>,
  replyTo?: string,
): Promise<SendResult> {
  try {
    const answer = await sender.graph.json('POST', `${sender.phoneNumberId}/messages`, {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to,
      ...(replyTo === undefined ? {} : { context: { message_id: replyTo } }),
      ...content,
    });
    const id = sentId(answer);
    return id === undefined
      ? { ok: false, error: 'transient', message: 'POST /messages answered without a message id', status: 200 }
      : { ok: true, messageIds: [id] };
  } catch (error) {
    return toSendFailure(error);
  }
}

/** A text message (WhatsApp's formatting already applied when `formatted`). */
export function sendText(sender: Sender, message: OutboundMessage): Promise<SendResult> {
  return postMessage(
    sender,
    message.chatId,
    { type: 'text', text: { body: message.text, preview_url: false } },
    message.replyToMessageId,
  );
}

/** The bot's reaction on a user's message; a new one replaces the bot's earlier reaction there. */
export async function sendReaction(sender: Sender, reaction: Reaction): Promise<SendResult> {
  const sent = await postMessage(sender, reaction.chatId, {
    type: 'reaction',
    reaction: { message_id: reaction.messageId, emoji: reaction.emoji },
  });
  return sent.ok ? { ok: true, messageIds: [reaction.messageId] } : sent;
}

/** Marks the user's message read (blue ticks) and shows "typing…" until the answer or 25 s. */
export async function markReadTyping(sender: Sender, messageId: string): Promise<void> {
  await sender.graph.json('POST', `${sender.phoneNumberId}/messages`, {
    messaging_product: 'whatsapp',
    status: 'read',
    message_id: messageId,
    typing_indicator: { type: 'text' },
  });
}

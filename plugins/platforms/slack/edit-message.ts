/**
 * Streamed answers and reactions: chat.update of the bot's message (mrkdwn, or plain text escaped
 * as for a post), reactions.add of a status emoji by its Slack name and reactions.remove of the
 * one it replaces. Never throws.
 */
import type { EditMessage, Reaction, SendResult } from '@hermes/protocol';
import type { webApi } from '@slack/bolt';
import { escapeMrkdwn } from './format/escape-mrkdwn.js';
import { toSendFailure } from './send-errors.js';
import { wellFormed } from './send-message.js';

/** Slack names the status emoji by name: 👀 eyes, ✅ white_check_mark, ❌ x. */
export const SLACK_REACTIONS: Readonly<Record<string, string>> = { '👀': 'eyes', '✅': 'white_check_mark', '❌': 'x' };

/** `${channel}:${ts}` (or a bare ts) → the ts. */
const tsOf = (id: string): string => id.slice(id.lastIndexOf(':') + 1);

/** A Web API `{ok:false}` error code Bolt's client threw, if any. */
function slackErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('data' in error)) return undefined;
  const data = (error as { data?: { error?: unknown } }).data;
  return typeof data?.error === 'string' ? data.error : undefined;
}

export async function editMessage(client: webApi.WebClient, message: EditMessage): Promise<SendResult> {
  try {
    await client.chat.update({
      channel: wellFormed(message.chatId),
      ts: tsOf(message.messageId),
      text: wellFormed(message.formatted ? message.text : escapeMrkdwn(message.text)),
    });
    return { ok: true, messageIds: [message.messageId] };
  } catch (error) {
    return toSendFailure(error);
  }
}

export async function setReaction(client: webApi.WebClient, reaction: Reaction): Promise<SendResult> {
  const item = { channel: wellFormed(reaction.chatId), timestamp: tsOf(reaction.messageId) };
  const name = (emoji: string) => SLACK_REACTIONS[emoji] ?? emoji;
  try {
    if (reaction.replaces !== undefined) {
      try {
        await client.reactions.remove({ ...item, name: name(reaction.replaces) });
      } catch (error) {
        if (slackErrorCode(error) !== 'no_reaction') throw error;
      }
    }
    await client.reactions.add({ ...item, name: name(reaction.emoji) });
    return { ok: true, messageIds: [reaction.messageId] };
  } catch (error) {
    if (slackErrorCode(error) === 'already_reacted') return { ok: true, messageIds: [reaction.messageId] };
    return toSendFailure(error);
  }
}

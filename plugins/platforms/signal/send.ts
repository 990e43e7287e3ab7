/**
 * What the bot sends through signal-cli: a text (`send`, Markdown as Signal text styles in its
 * `textStyle`), a file as a base64 data URI attachment (`send` with `attachments`), a reaction on a
 * user's message (`sendReaction`) and the typing indicator (`sendTyping`). Each send answers a
 * SendResult (the sent message's id is `<timestamp>:<account>`) and never throws.
 */
import { readFile } from 'node:fs/promises';
import type { Logger, OutboundMedia, OutboundMessage, Reaction, SendResult } from '@hermes/protocol';
import { chatTarget, messageIdOf, parseMessageId } from './addresses.js';
import { markdownToStyled } from './format/markdown-to-styled.js';
import { textStyleParams } from './format/styled-text.js';
import { isRecord, type RpcClient } from './rpc.js';
import { recipientResults, resultsFailure, toSendFailure } from './send-errors.js';

export interface Sender {
  rpc: RpcClient;
  account: string;
  logger?: Logger;
}

/** `quoteTimestamp` and `quoteAuthor` of a reply to `replyTo`, when it names a message. */
function quoteOf(replyTo: string | undefined): Record<string, unknown> {
  const quoted = replyTo === undefined ? undefined : parseMessageId(replyTo);
  return quoted === undefined ? {} : { quoteTimestamp: quoted.timestamp, quoteAuthor: quoted.author };
}

/** One `send` call; the answer's timestamp names the sent message. */
async function sendCall(sender: Sender, chatId: string, params: Record<string, unknown>): Promise<SendResult> {
  try {
    const answer = await sender.rpc.call('send', { ...chatTarget(chatId), ...params });
    const failed = resultsFailure(recipientResults(answer), 'send: no recipient took the message');
    if (failed !== undefined) return failed;
    const timestamp = isRecord(answer) ? answer.timestamp : undefined;
    if (typeof timestamp !== 'number') {
      return { ok: false, error: 'transient', message: 'send answered without a timestamp', status: 200 };
    }
    return { ok: true, messageIds: [messageIdOf(timestamp, sender.account)] };
  } catch (error) {
    return toSendFailure(error);
  }
}

/**
 * A text message. Formatted text is the answer's Markdown (the adapter's `format` keeps it): sent as
 * its text with the styles in `textStyle`; plain text goes as written. A daemon that refuses the
 * styles (a user error, -1) gets the same text once more without them.
 */
export async function sendText(sender: Sender, message: OutboundMessage): Promise<SendResult> {
  const { chatId } = message;
  const quote = quoteOf(message.replyToMessageId);
  const styled = message.formatted ? markdownToStyled(message.text) : undefined;
  if (styled === undefined || styled.text.trim() === '') {
    return sendCall(sender, chatId, { message: message.text, ...quote });
  }
  if (styled.styles.length === 0) return sendCall(sender, chatId, { message: styled.text, ...quote });
  const result = await sendCall(sender, chatId, {
    message: styled.text,
    textStyle: textStyleParams(styled.styles),
    ...quote,
  });
  if (result.ok || result.error !== 'bad_format') return result;
  const plain = await sendCall(sender, chatId, { message: styled.text, ...quote });
  if (plain.ok) {
    sender.logger?.warn({ chatId, error: result.message }, 'signal: the text styles were refused; sent without them');
  }
  return plain;
}

/** RFC 2397 with signal-cli's file name: `data:<mime>;filename=<name>;base64,<data>`. */
export function dataUri(mimeType: string, fileName: string, data: Buffer): string {
  const name = fileName.replace(/[;,\s]+/g, '_');
  return `data:${mimeType};filename=${name};base64,${data.toString('base64')}`;
}

/** A file as an attachment (the daemon may run on another machine: the bytes travel inline). */
export async function sendMedia(sender: Sender, media: OutboundMedia): Promise<SendResult> {
  let data: Buffer;
  try {
    data = await readFile(media.path);
  } catch (error) {
    return { ok: false, error: 'bad_format', message: `cannot read ${media.fileName}: ${String(error)}` };
  }
  return sendCall(sender, media.chatId, {
    message: '',
    attachments: [dataUri(media.mimeType, media.fileName, data)],
    ...quoteOf(media.replyToMessageId),
  });
}

/** The bot's reaction on a user's message; Signal keeps one reaction per person, a new one replaces it. */
export async function sendReaction(sender: Sender, reaction: Reaction): Promise<SendResult> {
  const target = parseMessageId(reaction.messageId);
  if (target === undefined) {
    return { ok: false, error: 'not_found', message: `not a Signal message id: ${reaction.messageId}` };
  }
  try {
    await sender.rpc.call('sendReaction', {
      ...chatTarget(reaction.chatId),
      emoji: reaction.emoji,
      targetAuthor: target.author,
      targetTimestamp: target.timestamp,
    });
    return { ok: true, messageIds: [reaction.messageId] };
  } catch (error) {
    return toSendFailure(error);
  }
}

/** Shows "typing…" in the chat (Signal shows it for 15 s unless stopped). */
export async function sendTyping(sender: Sender, chatId: string): Promise<void> {
  await sender.rpc.call('sendTyping', chatTarget(chatId));
}

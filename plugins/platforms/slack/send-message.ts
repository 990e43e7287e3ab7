/** OutboundMessage → chat.postMessage in the message's thread; never throws. */
import type { OutboundMessage, SendResult } from '@hermes/protocol';
import type { webApi } from '@slack/bolt';
import { findEarlierPost, sendMetadata } from './earlier-post.js';
import { escapeMrkdwn } from './format/escape-mrkdwn.js';
import { toMessageId, tsOfMessageId } from './message-ids.js';
import { toSendFailure } from './send-errors.js';

export interface SendOptions {
  unfurlLinks: boolean;
  /** called with the thread a message went into, once it is posted */
  onThreadPost?: (channel: string, threadTs: string) => void;
}

/** Lone UTF-16 surrogates become U+FFFD: the Web API client form-encodes parameters, and encodeURIComponent throws on them. */
export function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/**
 * Posts one message: formatted text as mrkdwn, plain text escaped (&, <, >) with mrkdwn off, so no
 * text can turn into a link or an @channel. Replies go in `threadId` (Slack's thread_ts), else in
 * the thread of `replyToMessageId`.
 */
export async function sendMessage(
  client: webApi.WebClient,
  message: OutboundMessage,
  options: SendOptions,
): Promise<SendResult> {
  const threadTs = message.threadId ?? tsOfMessageId(message.replyToMessageId);
  const key = message.idempotencyKey;
  if (key !== undefined && message.mayRepeat === true) {
    const earlier = await findEarlierPost(client, message.chatId, threadTs, key);
    if (earlier !== null) {
      if (threadTs !== undefined) options.onThreadPost?.(message.chatId, threadTs);
      return { ok: true, messageIds: [toMessageId(message.chatId, earlier)] };
    }
  }
  try {
    const result = await client.chat.postMessage({
      channel: wellFormed(message.chatId),
      text: wellFormed(message.formatted ? message.text : escapeMrkdwn(message.text)),
      mrkdwn: message.formatted,
      unfurl_links: options.unfurlLinks,
      unfurl_media: options.unfurlLinks,
      ...(threadTs === undefined ? {} : { thread_ts: wellFormed(threadTs) }),
      ...(key === undefined ? {} : { metadata: sendMetadata(key) }),
    });
    const ts = result.ts ?? result.message?.ts;
    if (threadTs !== undefined) options.onThreadPost?.(message.chatId, threadTs);
    return { ok: true, messageIds: ts === undefined ? [] : [toMessageId(result.channel ?? message.chatId, ts)] };
  } catch (error) {
    return toSendFailure(error);
  }
}

/**
 * OutboundMedia → files upload v2 (what @slack/web-api's `filesUploadV2` does:
 * files.getUploadURLExternal, the upload to the URL it answers, files.completeUploadExternal with
 * the channel and thread), so the file is shared in the answer's thread; Slack shows images inline.
 * Slack keeps no idempotency key on a file share: an upload repeated after a crash may show twice.
 */
import { readFile } from 'node:fs/promises';
import type { OutboundMedia, SendResult } from '@hermes/protocol';
import type { webApi } from '@slack/bolt';
import { tsOfMessageId } from './message-ids.js';
import { toSendFailure } from './send-errors.js';

export { SLACK_MAX_UPLOAD_BYTES } from './capabilities.js';

/** Uploads one file into the chat (the thread of `threadId`, else of `replyToMessageId`); never throws. */
export async function sendMedia(client: webApi.WebClient, media: OutboundMedia): Promise<SendResult> {
  const threadTs = media.threadId ?? tsOfMessageId(media.replyToMessageId);
  try {
    const file = await readFile(media.path);
    const upload = { channel_id: media.chatId, file, filename: media.fileName, title: media.fileName };
    await client.filesUploadV2(threadTs === undefined ? upload : { ...upload, thread_ts: threadTs });
    return { ok: true, messageIds: [] };
  } catch (error) {
    return toSendFailure(error);
  }
}

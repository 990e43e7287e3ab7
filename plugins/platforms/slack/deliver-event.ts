/** One Slack event end to end: check it, skip what the bot does not answer, name the user, download files, accept. */

import type { AttachmentFetcher, Sleep } from '@hermes/plugin-sdk';
import type { InboundSink, Logger } from '@hermes/protocol';
import type { AnsweredThreads } from './answered-threads.js';
import type { PendingFile } from './attachments.js';
import { describeError } from './error-text.js';
import { toMessageId } from './message-ids.js';
import { type BotIdentity, normalizeSlackMessage } from './normalize.js';
import type { OncePerKey } from './once-per-key.js';
import { SinkFailure } from './sink-failure.js';
import { parseSlackMessage } from './slack-message.js';
import type { UserNames } from './user-names.js';

/** The sink is tried this many times, these delays apart, before the event counts as failed. */
export const ACCEPT_RETRY_DELAYS_MS: readonly number[] = [100, 400];

export interface InboundDeps {
  sink: InboundSink;
  bot: BotIdentity;
  logger: Logger;
  strictMention: boolean;
  answered: AnsweredThreads;
  userNames?: UserNames;
  attachments: AttachmentFetcher<PendingFile>;
  once: OncePerKey;
  sleep: Sleep;
  now: () => number;
}

async function acceptWithRetry(
  deps: InboundDeps,
  event: Parameters<InboundSink['accept']>[0],
  signal: AbortSignal,
): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      await deps.sink.accept(event);
      return;
    } catch (error) {
      const delay = ACCEPT_RETRY_DELAYS_MS[attempt];
      if (delay === undefined || signal.aborted) throw new SinkFailure(error);
      deps.logger.warn(
        { error: describeError(error), messageId: event.messageId },
        'slack: sink refused an event; retrying',
      );
      await deps.sleep(delay, signal);
    }
  }
}

/**
 * Resolves once the sink accepted the event, or once it is known the bot does not answer it (bot
 * posts, edits, malformed payloads: logged and skipped); rejects with a SinkFailure when the sink
 * keeps failing. A message is handed over once however often Slack delivers it (retries, and its
 * `message` + `app_mention` pair share one message id). A file that cannot be downloaded is
 * delivered with `path: null` rather than blocking the chat.
 */
export async function deliverSlackEvent(
  event: unknown,
  body: unknown,
  deps: InboundDeps,
  signal: AbortSignal,
): Promise<void> {
  const parsed = parseSlackMessage(event);
  if (parsed.kind === 'malformed') {
    deps.logger.warn({ reason: parsed.reason }, `slack: malformed event skipped: ${parsed.reason}`);
    return;
  }
  if (parsed.kind === 'ignored') {
    deps.logger.debug({ reason: parsed.reason }, 'slack: event ignored');
    return;
  }
  const message = parsed.message;
  if (message.user === deps.bot.userId) return; // the bot's own post, echoed back
  await deps.once.run(toMessageId(message.channel, message.ts), async () => {
    if (signal.aborted) return;
    const userName = await deps.userNames?.lookup(message.user);
    const normalized = normalizeSlackMessage(message, body, {
      bot: deps.bot,
      strictMention: deps.strictMention,
      answeredThread: (channel, threadTs) => deps.answered.has(channel, threadTs),
      ...(userName === undefined ? {} : { userName }),
      now: deps.now(),
    });
    if ('ignored' in normalized) {
      deps.logger.debug({ reason: normalized.ignored }, 'slack: event ignored');
      return;
    }
    await deps.attachments.fetchAll(
      normalized.files,
      signal,
      (file) => ({ messageId: normalized.event.messageId, fileId: file.ref.id }),
      normalized.event.source.userId, // a stranger's files are not stored
    );
    if (signal.aborted) return; // nothing is delivered after stop()
    await acceptWithRetry(deps, normalized.event, signal);
  });
}

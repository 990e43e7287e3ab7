/**
 * Exactly-once posting over a crash. Every post carries its outbox row's idempotency key as
 * message metadata; a send that may repeat an earlier one (after a restart, or after an error
 * Slack may have posted despite) first looks for a post of ours with that key in the channel, or
 * in the thread, and reports it instead of posting again. Reading needs the `*:history` scopes a
 * bot that receives messages has anyway; without them (or on any error) the send goes ahead, at
 * least once, as before.
 */
import type { webApi } from '@slack/bolt';

/** The metadata event type of the gateway's posts. */
export const SEND_EVENT_TYPE = 'hermes_send';
/** Newest channel messages searched (a repeat follows its first try within seconds to minutes). */
const CHANNEL_LOOKBACK = 50;
/** Thread replies searched (Slack returns a thread oldest first). */
const THREAD_LOOKBACK = 200;

/** The metadata a post carries for `key`. */
export function sendMetadata(key: string): { event_type: string; event_payload: { key: string } } {
  return { event_type: SEND_EVENT_TYPE, event_payload: { key } };
}

/** The ts of our earlier post carrying `key` in `channel` (in the thread `threadTs` when given), or null. */
export async function findEarlierPost(
  client: webApi.WebClient,
  channel: string,
  threadTs: string | undefined,
  key: string,
): Promise<string | null> {
  try {
    const answer =
      threadTs === undefined
        ? await client.conversations.history({ channel, limit: CHANNEL_LOOKBACK, include_all_metadata: true })
        : await client.conversations.replies({
            channel,
            ts: threadTs,
            limit: THREAD_LOOKBACK,
            include_all_metadata: true,
          });
    for (const message of answer.messages ?? []) {
      const metadata = message.metadata as { event_type?: unknown; event_payload?: { key?: unknown } } | undefined;
      if (metadata?.event_type === SEND_EVENT_TYPE && metadata.event_payload?.key === key && message.ts) {
        return message.ts;
      }
    }
  } catch {
    // no history scope, a rate limit, a network error: post, as without the lookup
  }
  return null;
}

/** Slack message ids: a message is its channel plus its ts, stable across event types and redeliveries. */

/** `${channel}:${ts}` — the same for a message's `message` and `app_mention` events and their retries. */
export function toMessageId(channel: string, ts: string): string {
  return `${channel}:${ts}`;
}

/** A Slack ts: seconds, a dot, microseconds (`1712345678.000100`). */
export function isSlackTs(value: unknown): value is string {
  return typeof value === 'string' && /^\d+\.\d+$/.test(value);
}

/** Slack message ids: a message is its channel plus its ts, stable across event types and redeliveries. */

/** `${channel}:${ts}` — the same for a message's `message` and `app_mention` events and their retries. */
export function toMessageId(channel: string, ts: string): string {
  return `${channel}:${ts}`;
}

/** A Slack ts: seconds, a dot, microseconds (`1712345678.000100`). */
export function isSlackTs(value: unknown): value is string {
  return typeof value === 'string' && /^\d+\.\d+$/.test(value);
}

/** The ts of a message named by its gateway message id (`channel:ts`), or undefined when it names none. */
export function tsOfMessageId(id: string | undefined): string | undefined {
  if (id === undefined) return undefined;
  const ts = id.slice(id.lastIndexOf(':') + 1);
  return isSlackTs(ts) ? ts : undefined;
}

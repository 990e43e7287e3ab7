// Replies seen the moment a fake records them, on any fake that keeps its records in an array it
// exposes (the WhatsApp Graph API's `sent`, the Matrix homeserver's `sent`, signal-cli's `sent`,
// the SMTP server's `mails`): an own-property `push` on that one array instance runs as each record
// is made, synchronously in the fake's handler, and wakes the chat waiting for it. The fakes'
// sources are untouched (their reset() empties the array in place, which keeps the watch); restore()
// removes the property again. The Telegram benches do the same on the Bot API's `sent`
// (pipeline-load.ts watchReplies).
import type { ObservedReply } from './pipeline-load.js';

export interface PushWatch {
  /** resolves with the next reply recorded for `key` (register before sending) */
  next(key: string, timeoutMs: number): Promise<ObservedReply>;
  /** replies recorded for a key no chat was waiting on (a second answer, a stray message) */
  readonly unexpected: number;
  /** stops watching */
  restore(): void;
}

export interface PushWatchOptions<T> {
  /** the chat a record answers */
  keyOf(record: T): string;
  /** the text the chat sees */
  textOf(record: T): string;
  /** records that are not replies (a reaction, an edit) are let through unwatched */
  isReply?(record: T): boolean;
}

/** Watches `records` (the fake's own array) for replies. */
export function watchPushes<T>(records: T[], options: PushWatchOptions<T>): PushWatch {
  const waiters = new Map<string, (reply: ObservedReply) => void>();
  let unexpected = 0;
  const push = function push(this: T[], ...items: T[]): number {
    const at = performance.now();
    const length = Array.prototype.push.apply(this, items);
    for (const item of items) {
      if (options.isReply !== undefined && !options.isReply(item)) continue;
      const key = options.keyOf(item);
      const wake = waiters.get(key);
      if (wake === undefined) {
        unexpected += 1;
        continue;
      }
      waiters.delete(key);
      wake({ at, text: options.textOf(item) });
    }
    return length;
  };
  Object.defineProperty(records, 'push', { value: push, configurable: true, writable: true, enumerable: false });
  return {
    next(key, timeoutMs) {
      if (waiters.has(key)) return Promise.reject(new Error(`${key} already waits for a reply`));
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(key);
          reject(new Error(`no reply to ${key} within ${timeoutMs} ms`));
        }, timeoutMs);
        timer.unref();
        waiters.set(key, (reply) => {
          clearTimeout(timer);
          resolve(reply);
        });
      });
    },
    get unexpected() {
      return unexpected;
    },
    restore() {
      delete (records as { push?: unknown }).push;
      waiters.clear();
    },
  };
}

// Load for the pipeline benchmarks: chats that each POST webhook updates one after another over a
// keep-alive client, and a per-chat reply waiter on the fake Bot API's `sent` records.
import { Agent, request } from 'node:http';
import type { SentMessage } from '../fakes/telegram-server.js';

/** A reply as the fake recorded it: `at` is `performance.now()` at the moment of the record. */
export interface ObservedReply {
  at: number;
  text: string;
}

export interface ReplyWatch {
  /** Resolves with the next sendMessage the fake records for `chatId` (register before the POST). */
  next(chatId: number, timeoutMs: number): Promise<ObservedReply>;
  /** sendMessage records that no chat was waiting for (a second answer, a stray message). */
  readonly unexpected: number;
  /** Puts the fake's `sent` back as it was. */
  restore(): void;
}

/**
 * Timestamps replies without polling: the fake pushes every successful sendMessage onto the `sent`
 * array it exposes, synchronously in its request handler (after parsing the body, before answering),
 * so an own-property `push` on that one array instance sees each record the moment it is made. The
 * fake's source is untouched; `restore()` removes the property again.
 */
export function watchReplies(sent: readonly SentMessage[]): ReplyWatch {
  const records = sent as SentMessage[];
  const waiters = new Map<string, (reply: ObservedReply) => void>();
  let unexpected = 0;
  const push = function push(this: SentMessage[], ...items: SentMessage[]): number {
    const at = performance.now();
    const length = Array.prototype.push.apply(this, items);
    for (const item of items) {
      const key = String(item.chat_id);
      const wake = waiters.get(key);
      if (wake === undefined) {
        unexpected += 1;
        continue;
      }
      waiters.delete(key);
      wake({ at, text: item.text });
    }
    return length;
  };
  Object.defineProperty(records, 'push', { value: push, configurable: true, writable: true, enumerable: false });
  return {
    next(chatId, timeoutMs) {
      const key = String(chatId);
      if (waiters.has(key)) return Promise.reject(new Error(`chat ${chatId} already waits for a reply`));
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(key);
          reject(new Error(`no sendMessage for chat ${chatId} within ${timeoutMs} ms`));
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

export interface WebhookTarget {
  name: string;
  port: number;
  path: string;
  secret: string;
  /** the headers that authenticate a body (default: Telegram's secret token header with `secret`) */
  headers?: (body: string) => Record<string, string>;
}

/** A keep-alive HTTP/1.1 client for one target: one socket per chat, reused across its messages. */
export interface WebhookClient {
  post(body: string): Promise<number>;
  close(): void;
}

export function webhookClient(target: WebhookTarget, sockets: number): WebhookClient {
  const agent = new Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets });
  const attempt = (body: string, retried: boolean): Promise<number> =>
    new Promise((resolve, reject) => {
      const req = request(
        {
          agent,
          host: '127.0.0.1',
          port: target.port,
          path: target.path,
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            ...(target.headers?.(body) ?? { 'x-telegram-bot-api-secret-token': target.secret }),
          },
        },
        (res) => {
          res.on('data', () => {});
          res.on('end', () => resolve(res.statusCode ?? 0));
          res.on('error', reject);
        },
      );
      req.on('error', (error: NodeJS.ErrnoException) => {
        // a kept-alive socket the server closed (its idle timeout: Node's own server keeps one 5 s)
        // just as this request went out on it: the server never read it, so it goes again on a new
        // connection, once (Node's reusedSocket rule; Telegram delivers an update again too)
        if (!retried && req.reusedSocket && error.code === 'ECONNRESET') resolve(attempt(body, true));
        else reject(error);
      });
      req.end(body);
    });
  return {
    post: (body) => attempt(body, false),
    close() {
      agent.destroy();
    },
  };
}

export interface LoadOptions {
  /** the chat each concurrent slot starts with (positive: private chats; the user id is the chat id) */
  chats: readonly number[];
  /** after this many messages a slot moves on to a new chat from `newChat` (default: never) */
  turnsPerChat?: number;
  /** a chat id never used before */
  newChat?: () => number;
  /** messages in all, spread over the chats as they come */
  messages: number;
  /** stop issuing new messages after this long */
  capMs: number;
  /** a reply slower than this fails the run */
  replyTimeoutMs: number;
  /** builds the webhook body for one message */
  update: (chatId: number, text: string) => unknown;
  /** true when the reply text is the expected answer to `sent` */
  expect: (sent: string, reply: string) => boolean;
}

export interface LoadResult {
  /** messages answered */
  count: number;
  elapsedMs: number;
  /** per message, POST start to the fake's sendMessage record, sorted ascending */
  latenciesMs: Float64Array;
  capped: boolean;
}

/**
 * Each slot is one chat at a time that sends its next message once its previous reply was recorded
 * and its POST was answered (grammy answers the webhook after the reply; Hermes answers it once the
 * update is persisted). `chats.length` slots run concurrently.
 */
export async function runLoad(client: WebhookClient, watch: ReplyWatch, options: LoadOptions): Promise<LoadResult> {
  const latencies = new Float64Array(options.messages);
  let issued = 0;
  let done = 0;
  let capped = false;
  let failed = false;
  const started = performance.now();
  const deadline = started + options.capMs;
  const turnsPerChat = options.turnsPerChat ?? Number.POSITIVE_INFINITY;
  const chat = async (first: number): Promise<void> => {
    let chatId = first;
    let turns = 0;
    while (issued < options.messages && !failed) {
      if (performance.now() > deadline) {
        capped = true;
        return;
      }
      if (turns === turnsPerChat && options.newChat !== undefined) {
        chatId = options.newChat();
        turns = 0;
      }
      turns += 1;
      const seq = issued++;
      const text = `bench message ${seq}`;
      const body = JSON.stringify(options.update(chatId, text));
      const reply = watch.next(chatId, options.replyTimeoutMs);
      const t0 = performance.now();
      const [status, observed] = await Promise.all([client.post(body), reply]).catch((error: unknown) => {
        failed = true;
        throw error;
      });
      if (status !== 200) {
        failed = true;
        throw new Error(`webhook POST for chat ${chatId} answered ${status}`);
      }
      if (!options.expect(text, observed.text)) {
        failed = true;
        throw new Error(`chat ${chatId}: unexpected reply ${JSON.stringify(observed.text)} to ${JSON.stringify(text)}`);
      }
      latencies[done++] = observed.at - t0;
    }
  };
  await Promise.all(options.chats.map(chat));
  const elapsedMs = performance.now() - started;
  const measured = latencies.slice(0, done).sort();
  return { count: done, elapsedMs, latenciesMs: measured, capped };
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? Number.NaN;
}

// The API platform in the chaos run: an OpenAI-compatible client per user, `POST
// /v1/chat/completions` with the user's session key (`x-hermes-session`). A request that gets no
// answer (a kill -9 cut the connection, no gateway listening, 503 while starting or draining, a
// 5xx) is sent again with the same session key, as a real client retries; the reply the client
// finally receives is what the run counts. Duplicates are judged by the transcript (audit.ts).
import type { ChaosPlatform, Reply } from './platforms.js';
import { streamAndSpare, users } from './platforms.js';

/** a client gives up on one message after this long (the run's settle phase is shorter than this) */
const GIVE_UP_MS = 240_000;
/** a request with no answer this long is abandoned and sent again (a turn takes seconds) */
const REQUEST_TIMEOUT_MS = 60_000;

export interface ApiClientStats {
  requests: number;
  /** requests sent again after a failed one */
  retries: number;
  /** what the failed requests got: status or error name, counted */
  failures: Record<string, number>;
  /** messages whose client gave up */
  gaveUp: number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function apiPlatform(): ChaosPlatform & { stats: ApiClientStats } {
  const list = users((i) => `chaos-api-user${i}`);
  const replies: Reply[] = [];
  let cursor = 0;
  let target: () => string | undefined = () => undefined;
  let closed = false;
  let onWire = 0;
  const attemptsByKey = new Map<number, number>();
  const stats: ApiClientStats = { requests: 0, retries: 0, failures: {}, gaveUp: 0 };
  const fail = (what: string) => {
    stats.failures[what] = (stats.failures[what] ?? 0) + 1;
  };

  /** one message: requests until the gateway answers 200 with the completion */
  const converse = async (key: number, sessionKey: string, chatId: string, text: string): Promise<void> => {
    const started = Date.now();
    for (let attempt = 0; !closed && Date.now() - started < GIVE_UP_MS; attempt++) {
      if (attempt > 0) {
        stats.retries += 1;
        await sleep(Math.min(2_000, 250 * 2 ** Math.min(attempt, 4)));
      }
      attemptsByKey.set(key, attempt + 1);
      const base = target();
      if (base === undefined) {
        fail('no gateway');
        continue;
      }
      stats.requests += 1;
      onWire += 1;
      try {
        const response = await fetch(`${base}/v1/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-hermes-session': sessionKey },
          body: JSON.stringify({ model: 'hermes', messages: [{ role: 'user', content: text }] }),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        if (response.status !== 200) {
          await response.arrayBuffer();
          fail(String(response.status));
          continue;
        }
        const body = (await response.json()) as { choices?: { message?: { content?: unknown } }[] };
        const content = body.choices?.[0]?.message?.content;
        replies.push({ chatId, text: typeof content === 'string' ? content : JSON.stringify(body) });
        return;
      } catch (error) {
        fail(error instanceof Error ? (error.cause instanceof Error ? error.cause.name : error.name) : 'error');
      } finally {
        onWire -= 1;
      }
    }
    if (!closed) stats.gaveUp += 1;
  };

  return {
    name: 'api',
    mode: 'api',
    ...streamAndSpare(list),
    stats,
    async start() {},
    async close() {
      closed = true;
    },
    env: () => ({}),
    settings: () => ({}),
    attach(gatewayUrl) {
      target = gatewayUrl;
    },
    send(user, text, _group, key) {
      // no groups on the API: every message is the user's own session
      const chatId = `api:${user.id}`;
      void converse(key, user.id, chatId, text);
      return { chatId };
    },
    takeReplies() {
      const out = replies.slice(cursor);
      cursor = replies.length;
      return out;
    },
    replyCount: () => replies.length,
    rateLimitStorm() {},
    serverErrors() {},
    async dropConnection() {},
    failuresAnswered: () => ({ rateLimited: 0, serverErrors: 0 }),
    tick() {},
    pushOutcomes: (key) => {
      const attempts = attemptsByKey.get(key) ?? 0;
      return attempts === 0 ? [] : [{ attempts, okAt: undefined, gaveUp: false, failures: [] }];
    },
    pushRetries: () => stats.retries,
    inFlight: () => onWire,
  };
}

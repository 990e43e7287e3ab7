// The fake model's behaviour during the chaos run: it answers `ack <message key>` after a short
// random delay, except while a fault is pending: 429s, 5xx, requests that never answer (the
// client's timeout fires) and slow answers. A message never gets more failed requests than the
// gateway's retries can absorb, so a model fault may delay an answer but cannot excuse a missing one.
import { imagePartsOf, type RecordedRequest, type Reply, type Responder } from '../fakes/openai-server.js';
import type { Rng } from './rng.js';

export type ModelFault = 'model-429' | 'model-5xx' | 'model-timeout' | 'model-slow';

/** failed requests one message may see at most (the gateway retries up to agent.api_max_retries) */
export const MAX_FAILURES_PER_MESSAGE = 2;
export const KEY_PATTERN = /chaos-m(\d+)\b/;
/** the last word of a streamed answer: a streamed `ack` is whole once it ends with it */
export const STREAM_END = 'done';

/** The text of the request's last user message (the turn's message). */
export function lastUserText(request: RecordedRequest): string {
  const messages = (request.body?.messages ?? []) as { role?: unknown; content?: unknown }[];
  const last = [...messages].reverse().find((m) => m.role === 'user');
  return typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content ?? '');
}

export class ModelChaos {
  readonly #rng: Rng;
  readonly #pending: Reply[] = [];
  readonly #failures = new Map<string, number>();
  readonly #stuck = new Set<string>();
  #slowUntil = 0;
  /** requests the fake answered with a fault, by kind (`stuck`: requests for a stuck message) */
  readonly served = { rateLimited: 0, serverErrors: 0, hung: 0, slow: 0, stuck: 0, answers: 0, withImage: 0 };

  /**
   * streaming mode: answers stream in pieces and end with ` done` (`ack chaos-m<N> done`), so a
   * streamed message's partial text (`ack chaos-m1` of m12) is never taken for a whole answer
   */
  readonly streamed: boolean;
  /** the MEDIA line the answer to message N ends with, if any (media.ts) */
  readonly #mediaLine: (key: number) => string | undefined;

  constructor(rng: Rng, options: { streamed?: boolean; mediaLine?: (key: number) => string | undefined } = {}) {
    this.#rng = rng;
    this.streamed = options.streamed === true;
    this.#mediaLine = options.mediaLine ?? (() => undefined);
  }

  /** Queues a fault for the next requests: `count` failures, or (slow) slow answers for `count` seconds. */
  inject(fault: ModelFault, count: number): void {
    if (fault === 'model-slow') {
      this.#slowUntil = Date.now() + count * 1_000;
      return;
    }
    for (let i = 0; i < count; i++) {
      if (fault === 'model-429') this.#pending.push({ status: 429, headers: { 'retry-after': '1' } });
      else if (fault === 'model-5xx') this.#pending.push({ status: this.#rng.pick([500, 502, 503]) });
      else this.#pending.push({ hang: true });
    }
  }

  /** Every request for the message with `key` (`chaos-m<N>`) hangs from now on: its turn never ends by itself. */
  stick(key: string): void {
    this.#stuck.add(key);
  }

  /** Drops pending failures and the slow window (the run's final, fault-free phase). */
  heal(): void {
    this.#pending.length = 0;
    this.#slowUntil = 0;
  }

  readonly responder: Responder = (request) => {
    const text = lastUserText(request);
    const key = KEY_PATTERN.exec(text)?.[0] ?? text.slice(0, 40);
    if (this.#stuck.has(key)) {
      this.served.stuck += 1;
      return { hang: true };
    }
    const failed = this.#failures.get(key) ?? 0;
    if (this.#pending.length > 0 && failed < MAX_FAILURES_PER_MESSAGE) {
      const fault = this.#pending.shift() as Reply;
      this.#failures.set(key, failed + 1);
      if ('hang' in fault && fault.hang === true) this.served.hung += 1;
      else if ('status' in fault && fault.status === 429) this.served.rateLimited += 1;
      else this.served.serverErrors += 1;
      return fault;
    }
    const slow = Date.now() < this.#slowUntil;
    if (slow) this.served.slow += 1;
    this.served.answers += 1;
    // an inbound photo reached the model as an image part
    if (imagePartsOf(request).length > 0) this.served.withImage += 1;
    const delayMs = slow ? this.#rng.int(700, 1_400) : this.#rng.int(5, 120);
    const n = KEY_PATTERN.exec(text)?.[1];
    const media = n === undefined ? undefined : this.#mediaLine(Number(n));
    const tail = media === undefined ? '' : `\n${media}`;
    if (this.streamed)
      return { text: `ack ${key} ${STREAM_END}${tail}`, delayMs, chunkDelayMs: this.#rng.int(20, 120) };
    return { text: `ack ${key}${tail}`, delayMs };
  };
}

/**
 * The questions the gateway put to a user in a chat and waits on (a dangerous command's approval,
 * the clarify tool's question): each has an id its buttons carry, the user who was asked and where,
 * and settles once, with that user's answer, the timeout's answer, or the turn's end (its signal).
 * Only the asked user's answer, in the chat it was asked in, counts (`whoseAnswer`).
 */
import { randomBytes } from 'node:crypto';

/** Who was asked, and in which chat. */
export interface AskedUser {
  platform: string;
  chatId: string;
  threadId?: string | undefined;
  userId: string;
}

/** One question waiting for an answer; `data` is what its asker keeps with it (the event, the question). */
export interface PendingAsk<A, D> extends AskedUser {
  readonly id: string;
  readonly data: D;
  /** the prompt's message, once it was sent with buttons (edited when the ask settles) */
  messageId?: string;
  /** the answer it settled with (absent while it waits) */
  settled?: A;
  /** settles the ask with `answer`; false when it had settled already (nothing happens then) */
  settle(answer: A): boolean;
}

export interface AskOptions<A, D> {
  data: D;
  /** the answer when nobody answered within `timeoutMs` */
  timeoutMs: number;
  onTimeout: A;
  /** the turn's signal: its abort settles the ask with `onAbort` */
  signal: AbortSignal;
  onAbort: A;
  /** called once the ask settled, with its answer (closing the prompt) */
  onSettled?(ask: PendingAsk<A, D>, answer: A): void;
}

/** Whether a press or a typed answer may settle `ask`: it is waiting, in that chat, and theirs. */
export function whoseAnswer<A, D>(
  ask: PendingAsk<A, D> | undefined,
  from: { platform: string; chatId: string; userId: string },
): 'unknown' | 'not_yours' | 'theirs' {
  if (ask === undefined || ask.platform !== from.platform || ask.chatId !== from.chatId) return 'unknown';
  return ask.userId === from.userId ? 'theirs' : 'not_yours';
}

/** An ask's id: 12 hex digits (short enough for a button's data). */
export const newAskId = (): string => randomBytes(6).toString('hex');

export class PendingAsks<A, D> {
  readonly #pending = new Map<string, PendingAsk<A, D>>();
  readonly #newId: () => string;

  constructor(options: { newId?: () => string } = {}) {
    this.#newId = options.newId ?? newAskId;
  }

  /** Opens an ask for `who`; `answer` resolves once it settles (at once with `onAbort` when the signal is aborted). */
  open(who: AskedUser, options: AskOptions<A, D>): { ask: PendingAsk<A, D>; answer: Promise<A> } {
    const { signal } = options;
    let resolve: (answer: A) => void = () => {};
    const answer = new Promise<A>((r) => {
      resolve = r;
    });
    let timer: NodeJS.Timeout | undefined;
    const onAbort = () => ask.settle(options.onAbort);
    const ask: PendingAsk<A, D> = {
      id: this.#newId(),
      platform: who.platform,
      chatId: who.chatId,
      ...(who.threadId === undefined ? {} : { threadId: who.threadId }),
      userId: who.userId,
      data: options.data,
      settle: (value) => {
        if (!this.#pending.delete(ask.id)) return false;
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        ask.settled = value;
        resolve(value);
        options.onSettled?.(ask, value);
        return true;
      },
    };
    this.#pending.set(ask.id, ask);
    if (signal.aborted) {
      ask.settle(options.onAbort);
      return { ask, answer };
    }
    timer = setTimeout(() => ask.settle(options.onTimeout), options.timeoutMs);
    timer.unref?.();
    signal.addEventListener('abort', onAbort, { once: true });
    return { ask, answer };
  }

  /** The ask waiting under `id`. */
  get(id: string): PendingAsk<A, D> | undefined {
    return this.#pending.get(id);
  }

  /** The asks waiting in a chat, oldest first. */
  inChat(platform: string, chatId: string): PendingAsk<A, D>[] {
    return [...this.#pending.values()].filter((p) => p.platform === platform && p.chatId === chatId);
  }

  /** Asks waiting for an answer. */
  get size(): number {
    return this.#pending.size;
  }
}

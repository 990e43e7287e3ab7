/**
 * The active session of recently used session keys, with its transcript once read: a turn on a
 * warm session costs no session lookup and no transcript decode. Only the gateway writes its
 * sessions' transcripts, and every write goes through `appended`/`replaced`, so the cache stays
 * true; `forget` drops an entry whose state is uncertain (a failed commit).
 */
import type { ChatMessage } from '@hermes/protocol';

export interface CachedSession {
  id: string;
  updatedAt: number;
  /** the transcript, null until read */
  history: readonly ChatMessage[] | null;
}

/** Sessions kept at most; the least recently used goes first. */
export const SESSION_CACHE_MAX = 512;
/**
 * The transcripts kept, in all, at most (approximate bytes of message text, `messageBytes`): past
 * it the least recently used sessions go first, and a transcript larger than the whole budget is
 * not kept at all (its session is, and its next turn reads the transcript from the store).
 */
export const SESSION_CACHE_MAX_BYTES = 64 * 1024 * 1024;

/** A message's weight in the cache: its text and tool calls' arguments, plus a fixed overhead. */
export function messageBytes(m: ChatMessage): number {
  let bytes = 96 + (m.content?.length ?? 0);
  if (m.role === 'assistant' && m.tool_calls)
    for (const call of m.tool_calls) bytes += 64 + call.function.name.length + call.function.arguments.length;
  return bytes;
}

const historyBytes = (history: readonly ChatMessage[]): number => {
  let bytes = 0;
  for (const m of history) bytes += messageBytes(m);
  return bytes;
};

interface Entry {
  session: CachedSession;
  bytes: number;
}

export class SessionCache {
  readonly #entries = new Map<string, Entry>();
  readonly #maxSessions: number;
  readonly #maxBytes: number;
  #bytes = 0;

  constructor(limits: { maxSessions?: number; maxBytes?: number } = {}) {
    this.#maxSessions = limits.maxSessions ?? SESSION_CACHE_MAX;
    this.#maxBytes = limits.maxBytes ?? SESSION_CACHE_MAX_BYTES;
  }

  /** The approximate bytes of the transcripts kept (`messageBytes`). */
  get bytes(): number {
    return this.#bytes;
  }

  /** The cached active session of a key (and marks it recently used). */
  get(key: string): CachedSession | undefined {
    const entry = this.#entries.get(key);
    if (entry) {
      this.#entries.delete(key);
      this.#entries.set(key, entry);
    }
    return entry?.session;
  }

  /** Records the key's active session (a lookup, or a new session with an empty transcript). */
  replaced(key: string, session: CachedSession): CachedSession {
    this.forget(key);
    const bytes = session.history ? historyBytes(session.history) : 0;
    this.#entries.set(key, { session, bytes });
    this.#bytes += bytes;
    this.#fit(key);
    return session;
  }

  /** Messages were committed to the session's transcript at `at`. */
  appended(key: string, sessionId: string, history: readonly ChatMessage[], added: readonly ChatMessage[], at: number) {
    const entry = this.#entries.get(key);
    if (!entry || entry.session.id !== sessionId) return;
    // frozen: the history is the same objects turn after turn, and the model request serializes a
    // frozen message once (completion-json.ts); a first fill freezes what was read from the store
    const first = entry.session.history === null;
    if (first) for (const m of history) Object.freeze(m);
    for (const m of added) Object.freeze(m);
    const grown = (first ? historyBytes(history) : 0) + historyBytes(added);
    entry.session.history = [...history, ...added];
    entry.session.updatedAt = at;
    entry.bytes += grown;
    this.#bytes += grown;
    this.#fit(key);
  }

  forget(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }

  /**
   * Within both bounds again after `key` grew: its transcript is dropped when it alone is past the
   * byte bound, then the least recently used sessions go until both bounds hold.
   */
  #fit(key: string): void {
    const touched = this.#entries.get(key);
    if (touched && touched.bytes > this.#maxBytes) {
      touched.session.history = null;
      this.#bytes -= touched.bytes;
      touched.bytes = 0;
    }
    while (this.#entries.size > this.#maxSessions || this.#bytes > this.#maxBytes) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.forget(oldest);
    }
  }
}

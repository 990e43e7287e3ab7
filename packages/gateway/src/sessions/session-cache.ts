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

/** Sessions kept; the least recently used goes first. */
export const SESSION_CACHE_MAX = 512;

export class SessionCache {
  readonly #entries = new Map<string, CachedSession>();
  readonly #max: number;

  constructor(max = SESSION_CACHE_MAX) {
    this.#max = max;
  }

  /** The cached active session of a key (and marks it recently used). */
  get(key: string): CachedSession | undefined {
    const entry = this.#entries.get(key);
    if (entry) {
      this.#entries.delete(key);
      this.#entries.set(key, entry);
    }
    return entry;
  }

  /** Records the key's active session (a lookup, or a new session with an empty transcript). */
  replaced(key: string, session: CachedSession): CachedSession {
    this.#entries.delete(key);
    this.#entries.set(key, session);
    if (this.#entries.size > this.#max) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    return session;
  }

  /** Messages were committed to the session's transcript at `at`. */
  appended(key: string, sessionId: string, history: readonly ChatMessage[], added: readonly ChatMessage[], at: number) {
    const entry = this.#entries.get(key);
    if (!entry || entry.id !== sessionId) return;
    // frozen: the history is the same objects turn after turn, and the model request serializes a
    // frozen message once (completion-json.ts); a first fill freezes what was read from the store
    if (entry.history === null) for (const m of history) Object.freeze(m);
    for (const m of added) Object.freeze(m);
    entry.history = [...history, ...added];
    entry.updatedAt = at;
  }

  forget(key: string): void {
    this.#entries.delete(key);
  }
}

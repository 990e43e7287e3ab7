/**
 * The console's login sessions: in memory (a restart logs everyone out), each a 32-byte random id
 * (the `hermes_console` cookie) with its own CSRF token, valid SESSION_TTL_MS from creation.
 */
import { createHash, randomBytes } from 'node:crypto';

export const SESSION_COOKIE = 'hermes_console';
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
/** sessions kept at most (the oldest goes first): a flood of logins cannot grow memory */
export const MAX_SESSIONS = 1000;

export interface ConsoleSessionRecord {
  id: string;
  csrf: string;
  /** `loopback`, or `token:` / `link:` and the first 6 hex chars of sha256(session id) */
  actor: string;
  expiresAt: number;
}

/** How a session logged in: on loopback without a login, with a token, or with a one-time link. */
export type LoginKind = 'loopback' | 'token' | 'link';

/** The actor name of a session logged in with a token or a link: never the secret, never the whole id. */
export function tokenActor(sessionId: string, kind: 'token' | 'link' = 'token'): string {
  return `${kind}:${createHash('sha256').update(sessionId).digest('hex').slice(0, 6)}`;
}

export class ConsoleSessionStore {
  readonly #sessions = new Map<string, ConsoleSessionRecord>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** A new session; `loopback` names the actor `loopback`, else `token:…` or `link:…`. */
  create(kind: LoginKind): ConsoleSessionRecord {
    const id = randomBytes(32).toString('base64url');
    const record: ConsoleSessionRecord = {
      id,
      csrf: randomBytes(32).toString('base64url'),
      actor: kind === 'loopback' ? 'loopback' : tokenActor(id, kind),
      expiresAt: this.#now() + SESSION_TTL_MS,
    };
    if (this.#sessions.size >= MAX_SESSIONS) {
      const oldest = this.#sessions.keys().next().value;
      if (oldest !== undefined) this.#sessions.delete(oldest);
    }
    this.#sessions.set(id, record);
    return record;
  }

  /** The live session of this id, or null (an expired one is removed). */
  get(id: string | undefined): ConsoleSessionRecord | null {
    if (id === undefined || id === '') return null;
    const record = this.#sessions.get(id);
    if (record === undefined) return null;
    if (record.expiresAt <= this.#now()) {
      this.#sessions.delete(id);
      return null;
    }
    return record;
  }

  delete(id: string | undefined): void {
    if (id !== undefined) this.#sessions.delete(id);
  }
}

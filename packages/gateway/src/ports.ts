/** What the gateway needs from the state store, as narrow interfaces (the store's repos satisfy them). */
import type { ChatMessage } from '@hermes/protocol';

export interface InboxPort {
  accept(
    platform: string,
    key: string,
    payload: unknown,
    options?: { sessionKey?: string; state?: Record<string, string> },
  ): { accepted: true; id: number } | { accepted: false; reason: 'duplicate' };
  mark(id: number, status: 'processing' | 'done' | 'skipped' | 'refused' | 'failed' | 'interrupted'): void;
  /** unfinished rows; `attempts` counts how many starts already tried to resume each */
  pending(): {
    id: number;
    platform: string;
    payload: unknown;
    status: string;
    attempts: number;
    sessionKey: string | null;
  }[];
}

export interface PairingPort {
  request(
    platform: string,
    userId: string,
    userName?: string,
  ): { code: string; expiresAt: number; isNew: boolean } | { refused: 'recently_answered'; retryAt: number };
  isApproved(platform: string, userId: string): boolean;
}

export interface PlatformStatePort {
  get(platform: string, key: string): string | undefined;
  set(platform: string, key: string, value: string): void;
  /** removes a key (a streamed answer's message ids once it is delivered); absent: the key is emptied */
  delete?(platform: string, key: string): void;
}

export interface SessionRowLike {
  id: string;
  updatedAt: number;
}

/** A session as the idle sweep sees it. */
export interface IdleSessionRow extends SessionRowLike {
  sessionKey: string;
  platform: string;
}

export interface SessionsPort {
  create(s: { key: string; platform: string; model?: string }): SessionRowLike;
  activeByKey(key: string): SessionRowLike | undefined;
  /** the newest session of the key, ended or not: why the last one ended */
  latestByKey(key: string): (SessionRowLike & { endReason: string | null }) | undefined;
  /** sessions not ended, of these platforms, last active before `before`: the longest idle first */
  idleActive(query: { before: number; platforms: readonly string[]; limit: number }): IdleSessionRow[];
  end(id: string, reason: string): boolean;
}

export interface TranscriptsPort {
  append(sessionId: string, messages: readonly ChatMessage[]): number;
  list(sessionId: string): ChatMessage[];
  count(sessionId: string): number;
}

/** The Responses API's stored responses: response id -> session and its transcript length then. */
export interface ApiResponsesPort {
  record(id: string, sessionId: string, messageCount: number): void;
  get(id: string): { sessionId: string; messageCount: number } | undefined;
}

export interface OutboxRowLike {
  id: number;
  status: string;
  text: string;
  formatted: boolean;
  chunkIndex: number;
  createdAt: number;
  /** `media`: an attachment whose `text` is the file's absolute path (absent: text) */
  kind?: 'text' | 'media';
}

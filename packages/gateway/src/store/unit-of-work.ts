/**
 * A unit of work: the store writes that must commit together, as data. The backend runs them in
 * one transaction (SQLite: better-sqlite3's synchronous transaction inside the group commit;
 * PostgreSQL: BEGIN ... COMMIT on one pooled connection) and answers each write's result in order.
 * Being data, a unit of work never awaits inside a transaction, so either backend plugs in.
 */
import type { ChatMessage } from '@hermes/protocol';

export type InboxStatus = 'processing' | 'done' | 'skipped' | 'refused' | 'failed' | 'interrupted';

export type AcceptResult = { accepted: true; id: number } | { accepted: false; reason: 'duplicate' };

export interface OutboxEnqueueRow {
  inboxId: number | null;
  platform: string;
  chatId: string;
  threadId: string | null;
  chunkIndex: number;
  text: string;
  formatted: boolean;
  /** `media`: `text` is the path of a file to upload */
  kind?: 'text' | 'media';
}

export interface EnqueuedRow {
  id: number;
  sent: boolean;
  createdAt: number;
  existed?: boolean;
}

export type StoreWrite =
  /** the inbound event under its dedupe key, with the platform's state (e.g. an update offset) */
  | {
      kind: 'inbox.accept';
      platform: string;
      key: string;
      payload: unknown;
      sessionKey?: string;
      state?: Record<string, string>;
    }
  | { kind: 'inbox.mark'; id: number; status: InboxStatus }
  | { kind: 'transcripts.append'; sessionId: string; messages: readonly ChatMessage[] }
  /** with an inbox id, rows written before a restart are reused (`existed`) */
  | { kind: 'outbox.enqueue'; rows: readonly OutboxEnqueueRow[] }
  | { kind: 'outbox.markSent'; id: number; platformMessageId: string | null }
  | { kind: 'outbox.markFailed'; id: number; error: string }
  | { kind: 'outbox.recordAttempt'; id: number; error: string }
  | { kind: 'platformState.set'; platform: string; key: string; value: string }
  | { kind: 'platformState.delete'; platform: string; key: string };

/** What each kind of write answers (void for plain writes). */
export interface WriteResults {
  'inbox.accept': AcceptResult;
  'inbox.mark': undefined;
  'transcripts.append': number;
  'outbox.enqueue': EnqueuedRow[];
  'outbox.markSent': undefined;
  'outbox.markFailed': undefined;
  'outbox.recordAttempt': undefined;
  'platformState.set': undefined;
  'platformState.delete': undefined;
}

export type WriteResult = WriteResults[StoreWrite['kind']];

export type UnitOfWork = readonly StoreWrite[];

/** Commits a unit of work in one transaction; resolves with each write's result once committed. */
export type CommitWork = (work: UnitOfWork) => Promise<WriteResult[]>;

/** Commits `before` and `last` together and answers `last`'s result. */
export async function commitFor<K extends StoreWrite['kind']>(
  commit: CommitWork,
  before: UnitOfWork,
  last: Extract<StoreWrite, { kind: K }>,
): Promise<WriteResults[K]> {
  const results = await commit([...before, last]);
  return results[results.length - 1] as WriteResults[K];
}

/**
 * A unit of work: the store writes that must commit together, as data. `AsyncStore.commit` runs
 * them in one transaction on either backend (SQLite: inside the group commit, commit-queue.ts;
 * PostgreSQL: BEGIN ... COMMIT on one pooled connection) and answers each write's result in order.
 * Being data, a unit of work never awaits inside a transaction, so either backend plugs in.
 */
import type { ChatMessage } from '@hermes/protocol';
import type { AcceptResult, InboxStatus } from './inbox-repo.js';
import type { EnqueuedRow, NewOutboxRow } from './outbox-repo.js';
import type { SessionTokens } from './transcripts-repo.js';

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
  /** with `tokens`, the turn's reported usage is added to the session's sums in the same UPDATE */
  | { kind: 'transcripts.append'; sessionId: string; messages: readonly ChatMessage[]; tokens?: SessionTokens | null }
  /** with an inbox id, rows written before a restart are reused (`existed`) */
  | { kind: 'outbox.enqueue'; rows: readonly NewOutboxRow[] }
  | { kind: 'outbox.markSent'; id: number; platformMessageId: string | null }
  | { kind: 'outbox.markFailed'; id: number; error: string }
  | { kind: 'outbox.recordAttempt'; id: number; error: string }
  | { kind: 'platformState.set'; platform: string; key: string; value: string }
  | { kind: 'platformState.delete'; platform: string; key: string };

/** What each kind of write answers: what its repository method returns. */
export interface WriteResults {
  'inbox.accept': AcceptResult;
  /** false: no such row */
  'inbox.mark': boolean;
  /** the number of messages written */
  'transcripts.append': number;
  'outbox.enqueue': EnqueuedRow[];
  /** false: no such row, or already sent */
  'outbox.markSent': boolean;
  'outbox.markFailed': boolean;
  'outbox.recordAttempt': boolean;
  'platformState.set': void;
  'platformState.delete': void;
}

export type WriteResult = WriteResults[StoreWrite['kind']];

export type UnitOfWork = readonly StoreWrite[];

export interface CommitOptions {
  /** the gateway instance writing (several on PostgreSQL): the owner of the inbox rows it accepts */
  owner?: string;
}

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

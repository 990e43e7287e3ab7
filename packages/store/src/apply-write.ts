/**
 * The one interpreter of writes: a `StoreWrite` applied with a backend's repositories, inside the
 * unit's transaction. SQLite's repositories answer at once (the group commit needs it: nothing may
 * await inside a better-sqlite3 transaction), PostgreSQL's through a promise; the same switch
 * serves both, typed by how the repositories answer.
 */
import type { InboxRepo } from './inbox-repo.js';
import type { OutboxRepo } from './outbox-repo.js';
import type { PlatformStateRepo } from './platform-state-repo.js';
import type { TranscriptsRepo } from './transcripts-repo.js';
import type { StoreWrite, WriteResult } from './unit-of-work.js';

/** How repositories answer: `sync` with the value itself, `async` with a promise of it. */
export type AnswerMode = 'sync' | 'async';

interface Answers<T> {
  sync: T;
  async: Promise<T>;
}

/** `T` as repositories of mode `M` answer it. */
export type Answer<M extends AnswerMode, T> = Answers<T>[M];

/** The repository methods a unit of work writes with. */
interface Written {
  inbox: Pick<InboxRepo, 'accept' | 'mark'>;
  transcripts: Pick<TranscriptsRepo, 'append'>;
  outbox: Pick<OutboxRepo, 'enqueue' | 'markSent' | 'markFailed' | 'recordAttempt'>;
  platformState: Pick<PlatformStateRepo, 'set' | 'delete'>;
}

type Answering<F, M extends AnswerMode> = F extends (...args: infer A) => infer R
  ? (...args: A) => Answer<M, R>
  : never;

/** Those methods as a backend of mode `M` has them (the SQLite `Store`, PostgreSQL's `PgRepos`). */
export type WriteRepos<M extends AnswerMode> = {
  readonly [R in keyof Written]: { readonly [K in keyof Written[R]]: Answering<Written[R][K], M> };
};

/** Applies one write with `repos` (inside the unit's transaction); `owner` marks accepted inbox rows. */
export function applyWrite<M extends AnswerMode>(
  repos: WriteRepos<M>,
  write: StoreWrite,
  owner: string | undefined,
): Answer<M, WriteResult> {
  switch (write.kind) {
    case 'inbox.accept': {
      const { sessionKey, state } = write;
      const options = {
        ...(owner !== undefined ? { owner } : {}),
        ...(sessionKey !== undefined ? { sessionKey } : {}),
        ...(state ? { state } : {}),
      };
      return repos.inbox.accept(write.platform, write.key, write.payload, options);
    }
    case 'inbox.mark':
      return repos.inbox.mark(write.id, write.status);
    case 'transcripts.append':
      return repos.transcripts.append(write.sessionId, write.messages, write.tokens);
    case 'outbox.enqueue':
      return repos.outbox.enqueue(write.rows);
    case 'outbox.markSent':
      return repos.outbox.markSent(write.id, write.platformMessageId);
    case 'outbox.markFailed':
      return repos.outbox.markFailed(write.id, write.error);
    case 'outbox.recordAttempt':
      return repos.outbox.recordAttempt(write.id, write.error);
    case 'platformState.set':
      return repos.platformState.set(write.platform, write.key, write.value);
    case 'platformState.delete':
      return repos.platformState.delete(write.platform, write.key);
  }
}

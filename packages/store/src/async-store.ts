/**
 * The store contract both backends satisfy: the SQLite store through a thin async adapter over its
 * synchronous repositories (`asyncSqliteStore`), PostgreSQL natively (`openPgStore`). The
 * repositories keep their names, arguments and results; only each result becomes a Promise.
 * Writes that must land together go through `commit` as one unit of work (unit-of-work.ts).
 */
import type { ApiResponsesRepo } from './api-responses-repo.js';
import type { ChildSessionsRepo } from './child-sessions-repo.js';
import { type Commit, sqliteCommit } from './commit.js';
import { CommitQueue } from './commit-queue.js';
import type { ContextSummariesRepo } from './context-summaries-repo.js';
import type { CronJobsRepo } from './cron-jobs-repo.js';
import type { IdentityLinksRepo } from './identity-links-repo.js';
import type { InboxRepo } from './inbox-repo.js';
import type { MemorySnapshotsRepo } from './memory-snapshots-repo.js';
import type { Store } from './open-store.js';
import type { OutboxRepo } from './outbox-repo.js';
import type { PairingRepo } from './pairing/pairing-types.js';
import type { PlatformStateRepo } from './platform-state-repo.js';
import type { Pruner } from './prune.js';
import type { SessionModelsRepo } from './session-models-repo.js';
import type { SessionSearchRepo } from './session-search-repo.js';
import type { SessionsRepo } from './sessions-repo.js';
import type { TranscriptsRepo } from './transcripts-repo.js';
import type { UsageCountersRepo } from './usage-counters-repo.js';

/** `T`'s methods, each returning a Promise of what the synchronous one returns. */
export type AsyncMethods<T> = {
  readonly [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
};

export type StoreBackend = 'sqlite' | 'postgres';

export interface AsyncStore {
  readonly backend: StoreBackend;
  /** Where it is: the SQLite path, or the PostgreSQL URL with its password masked. */
  readonly location: string;
  readonly sessions: AsyncMethods<SessionsRepo>;
  readonly transcripts: AsyncMethods<TranscriptsRepo>;
  readonly childSessions: AsyncMethods<ChildSessionsRepo>;
  readonly sessionModels: AsyncMethods<SessionModelsRepo>;
  readonly usageCounters: AsyncMethods<UsageCountersRepo>;
  readonly contextSummaries: AsyncMethods<ContextSummariesRepo>;
  readonly cronJobs: AsyncMethods<CronJobsRepo>;
  readonly inbox: AsyncMethods<InboxRepo>;
  readonly outbox: AsyncMethods<OutboxRepo>;
  readonly platformState: AsyncMethods<PlatformStateRepo>;
  readonly pairing: AsyncMethods<PairingRepo>;
  readonly apiResponses: AsyncMethods<ApiResponsesRepo>;
  readonly sessionSearch: AsyncMethods<SessionSearchRepo>;
  readonly memorySnapshots: AsyncMethods<MemorySnapshotsRepo>;
  /** identity links and `/link` codes: whose data a user's identity reaches */
  readonly identityLinks: AsyncMethods<IdentityLinksRepo>;
  /** Retention: deletes idle sessions' transcripts and finished rows older than a cutoff. */
  readonly pruner: AsyncMethods<Pruner>;
  /**
   * Commits a unit of work in one transaction, units in the order issued (SQLite: the group commit
   * of one event-loop turn; PostgreSQL: one transaction each); resolves with each write's result.
   */
  readonly commit: Commit;
  /** The highest applied migration version. */
  schemaVersion(): Promise<number>;
  /** Closes the connection(s); calling it again does nothing. */
  close(): Promise<void>;
}

/** Every method of `repo` (an object of functions) as an async function calling it. */
export function asyncMethods<T extends object>(repo: T): AsyncMethods<T> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(repo)) {
    if (typeof value === 'function') out[key] = async (...args: unknown[]) => value.apply(repo, args);
  }
  return out as AsyncMethods<T>;
}

/**
 * `asyncMethods(repo)`, with the writes named in `grouped` run in the group commit of their
 * event-loop turn (commit-queue.ts): each answers once that transaction committed, instead of
 * committing alone.
 */
function withGrouped<T extends object>(repo: T, queue: CommitQueue, grouped: readonly (keyof T & string)[]) {
  const out: Record<string, unknown> = { ...asyncMethods(repo) };
  for (const key of grouped) {
    const method = repo[key] as (...args: unknown[]) => unknown;
    out[key] = (...args: unknown[]) => queue.run(() => method.apply(repo, args));
  }
  return out as AsyncMethods<T>;
}

/**
 * The SQLite store as an AsyncStore: the same repositories, each call's result (or error) as a
 * Promise. The writes a message makes outside its units of work (a turn's admission counter, a
 * new session and its memory snapshot) join the group commit too.
 */
export function asyncSqliteStore(store: Store): AsyncStore {
  const queue = new CommitQueue(store.transaction, store.unit);
  return {
    backend: 'sqlite',
    location: store.path,
    sessions: withGrouped(store.sessions, queue, ['create']),
    transcripts: asyncMethods(store.transcripts),
    childSessions: asyncMethods(store.childSessions),
    sessionModels: asyncMethods(store.sessionModels),
    usageCounters: withGrouped(store.usageCounters, queue, ['add']),
    contextSummaries: asyncMethods(store.contextSummaries),
    cronJobs: asyncMethods(store.cronJobs),
    inbox: asyncMethods(store.inbox),
    outbox: asyncMethods(store.outbox),
    platformState: asyncMethods(store.platformState),
    pairing: asyncMethods(store.pairing),
    apiResponses: asyncMethods(store.apiResponses),
    sessionSearch: asyncMethods(store.sessionSearch),
    memorySnapshots: withGrouped(store.memorySnapshots, queue, ['put']),
    identityLinks: asyncMethods(store.identityLinks),
    pruner: asyncMethods(store.pruner),
    commit: sqliteCommit(store, queue),
    schemaVersion: async () => store.schemaVersion(),
    close: async () => store.close(),
  };
}

// @hermes/store: the state database on SQLite or PostgreSQL (sessions, transcripts, and the gateway's inbox, outbox, platform state and pairing) behind one async interface, and its unit of work.

// The API platform's stored responses (Responses API `previous_response_id`)
export type { ApiResponseRow, ApiResponsesRepo } from './api-responses-repo.js';
// The store contract of both backends (SQLite through an async adapter, PostgreSQL natively)
export {
  type AsyncMethods,
  type AsyncStore,
  asyncMethods,
  asyncSqliteStore,
  type StoreBackend,
} from './async-store.js';
// delegate_task children: their sessions linked to the delegating session
export type { ChildSessionRow, ChildSessionsRepo, ChildStatus, NewChildSession } from './child-sessions-repo.js';
export type { Commit } from './commit.js';
// The context engine's summaries beside the transcripts
export type { ContextSummariesRepo, ContextSummary } from './context-summaries-repo.js';
// Scheduled jobs
export type {
  CronFireRow,
  CronFireStatus,
  CronJobEdit,
  CronJobRow,
  CronJobState,
  CronJobsRepo,
  CronKind,
  NewCronJob,
} from './cron-jobs-repo.js';
// Memory: each session's system-prompt memory block
export { type IdentityLinksRepo, LINK_CODE_TTL_MS } from './identity-links-repo.js';
// Gateway inbox: inbound dedupe keys and the accepted-message log
export {
  type AcceptOptions,
  type AcceptResult,
  INBOX_STATUSES,
  type InboxClaim,
  type InboxRepo,
  type InboxRow,
  type InboxStatus,
} from './inbox-repo.js';
export type { MemorySnapshotsRepo } from './memory-snapshots-repo.js';
// Schema
export type { Migration, SqliteMigration } from './migration.js';
export { MIGRATIONS } from './migrations/index.js';
// Opening
export { openStore, type Store, type StoreOptions } from './open-store.js';
// Gateway outbox: reply chunks with their delivered mark
export type { EnqueuedRow, NewOutboxRow, OutboxKind, OutboxRepo, OutboxRow, OutboxStatus } from './outbox-repo.js';
// Pairing: codes, limits, the repository and its result types
export {
  newPairingCode,
  normalizePairingCode,
  PAIRING_ALPHABET,
  PAIRING_CODE_LENGTH,
  type RandomInt,
} from './pairing/pairing-code.js';
export {
  PAIRING_CODE_TTL_MS,
  PAIRING_FAILURE_WINDOW_MS,
  PAIRING_MAX_FAILURES,
  PAIRING_MAX_PENDING_PER_PLATFORM,
} from './pairing/pairing-limits.js';
export { createPairingRepo, type PairingRepoOptions } from './pairing/pairing-repo.js';
export type {
  ApprovedUser,
  PairingApproveResult,
  PairingRepo,
  PairingRequestResult,
  PendingPairing,
} from './pairing/pairing-types.js';
// PostgreSQL: the second backend, and copying a state.db into it
export { COPY_TABLES, type CopyResult, copySqliteToPg } from './pg/copy-to-pg.js';
export { isPostgresUrl, maskDatabaseUrl } from './pg/mask-url.js';
export { openPgStore, type PgRepos, type PgStore, type PgStoreOptions } from './pg/open-pg-store.js';
// Per-platform key/value state (update offsets, …)
export type { PlatformStateEntry, PlatformStateRepo } from './platform-state-repo.js';
// Retention
export { INBOX_KEEP_MS, type PruneCounts, type Pruner } from './prune.js';
export { newSessionId } from './session-id.js';
// Sessions
export type { SessionModelRow, SessionModelsRepo } from './session-models-repo.js';
// Session search (FTS5)
export {
  ftsPhrases,
  type SessionSearchHit,
  type SessionSearchOptions,
  type SessionSearchRepo,
} from './session-search-repo.js';
export type { IdleSessionsQuery, ListSessionsOptions, NewSession, SessionRow, SessionsRepo } from './sessions-repo.js';
// Raw SQLite access for later packages' repositories
export { isSqliteError, type SqliteDatabase, type SqliteStatement } from './sqlite.js';
export { backupSqliteFile } from './sqlite-backup.js';
// Transcripts
export type { SessionTokens, TranscriptsRepo } from './transcripts-repo.js';
// The unit of work: writes that commit together, as data (`AsyncStore.commit`)
export {
  type CommitOptions,
  type CommitWork,
  commitFor,
  type StoreWrite,
  type UnitOfWork,
  type WriteResult,
  type WriteResults,
} from './unit-of-work.js';
export type {
  UsageCounter,
  UsageCountersRepo,
  UsageDelta,
  UsagePeriod,
  UsageWindow,
} from './usage-counters-repo.js';

import { ERROR_CODES, HermesError } from '@hermes/protocol';
import { type ApiResponsesRepo, createApiResponsesRepo } from './api-responses-repo.js';
import { backgroundCheckpoints } from './background-checkpoint.js';
import { type ChildSessionsRepo, createChildSessionsRepo } from './child-sessions-repo.js';
import { type ContextSummariesRepo, createContextSummariesRepo } from './context-summaries-repo.js';
import { type CronJobsRepo, createCronJobsRepo } from './cron-jobs-repo.js';
import { createIdentityLinksRepo, type IdentityLinksRepo } from './identity-links-repo.js';
import { createInboxRepo, type InboxRepo } from './inbox-repo.js';
import { createMemorySnapshotsRepo, type MemorySnapshotsRepo } from './memory-snapshots-repo.js';
import { migrate, readSchemaVersion } from './migrate.js';
import { MIGRATIONS } from './migrations/index.js';
import { createOutboxRepo, type OutboxRepo } from './outbox-repo.js';
import type { RandomInt } from './pairing/pairing-code.js';
import { createPairingRepo } from './pairing/pairing-repo.js';
import type { PairingRepo } from './pairing/pairing-types.js';
import { createPlatformStateRepo, type PlatformStateRepo } from './platform-state-repo.js';
import { prepareStateFile, tightenStateFiles } from './private-files.js';
import { createPruner, type Pruner } from './prune.js';
import { createSearchIndex } from './search-index.js';
import { createSessionModelsRepo, type SessionModelsRepo } from './session-models-repo.js';
import { createSessionSearchRepo, type SessionSearchRepo } from './session-search-repo.js';
import { createSessionsRepo, type SessionsRepo } from './sessions-repo.js';
import { describeError, isSqliteError, openSqlite, type SqliteDatabase } from './sqlite.js';
import { createTranscriptsRepo, type TranscriptsRepo } from './transcripts-repo.js';
import { createUsageCountersRepo, type UsageCountersRepo } from './usage-counters-repo.js';
import { WriteScope } from './write-scope.js';

export interface StoreOptions {
  /** Milliseconds since the epoch; every stored timestamp comes from here. Defaults to `Date.now`. */
  now?: () => number;
  /** A uniform random integer in [0, max), for pairing codes. Defaults to `crypto.randomInt`. */
  randomInt?: RandomInt;
  /**
   * Run WAL checkpoints on a worker thread once the database sees writes, instead of inside a
   * commit on the calling thread (default true; see background-checkpoint.ts).
   */
  backgroundCheckpoints?: boolean;
  /**
   * Applied to every text written to transcripts (message content, tool call arguments): the
   * gateway passes its secret redactor so state.db never holds one. Outbox chunks are written by
   * delivery alone, from text it has already redacted.
   */
  redact?: (text: string) => string;
}

export interface Store {
  /** The path given to `openStore`. */
  readonly path: string;
  /** The raw connection, for later packages' repositories (prepare their statements once). */
  readonly db: SqliteDatabase;
  readonly sessions: SessionsRepo;
  readonly transcripts: TranscriptsRepo;
  /** `delegate_task` children: their sessions linked to the session that delegated them. */
  readonly childSessions: ChildSessionsRepo;
  /** the model each switched session uses (`/model`) */
  readonly sessionModels: SessionModelsRepo;
  /** per-user usage counters: budgets and rate limits (access.tiers.*.limits) */
  readonly usageCounters: UsageCountersRepo;
  /** The context engine's summaries beside the transcripts (the newest per session is used). */
  readonly contextSummaries: ContextSummariesRepo;
  /** Scheduled jobs and their fires (`hermes cron`, the `cronjob` tool). */
  readonly cronJobs: CronJobsRepo;
  /** Inbound dedupe keys and the accepted-message log. */
  readonly inbox: InboxRepo;
  /** Outbound reply chunks with their delivered mark. */
  readonly outbox: OutboxRepo;
  /** Per-platform key/value state (update offsets, …). */
  readonly platformState: PlatformStateRepo;
  /** Pairing codes and the users approved through them. */
  readonly pairing: PairingRepo;
  /** The Responses API's stored responses (response id -> session). */
  readonly apiResponses: ApiResponsesRepo;
  /** Full-text search over every transcript (`session_search`, FTS5 kept current by triggers). */
  readonly sessionSearch: SessionSearchRepo;
  /** The memory block of each session's system prompt, taken at its start. */
  readonly memorySnapshots: MemorySnapshotsRepo;
  /** identity links and `/link` codes (users apart) */
  readonly identityLinks: IdentityLinksRepo;
  /** Retention: deletes idle sessions' transcripts and finished rows older than a cutoff. */
  readonly pruner: Pruner;
  /** Runs `fn` (synchronous) in one IMMEDIATE transaction, or a savepoint when already inside one. */
  transaction<T>(fn: () => T): T;
  /**
   * Runs `fn` (synchronous) with the repositories' multi-statement writes (accept, append, enqueue)
   * opening no savepoint of their own: only inside a transaction or savepoint that rolls back whole
   * when `fn` throws (the group commit runs each unit of work so; write-scope.ts).
   */
  unit<T>(fn: () => T): T;
  /** The highest applied migration version. */
  schemaVersion(): number;
  /** Closes the connection; calling it again does nothing. */
  close(): void;
}

const BUSY_TIMEOUT_MS = 5_000;

function configure(db: SqliteDatabase, path: string): void {
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  const mode = db.pragma('journal_mode = WAL', { simple: true });
  if (mode !== 'wal' && !db.memory) {
    throw new HermesError(ERROR_CODES.STATE_DB, `state database ${path} could not switch to WAL mode (got ${mode})`);
  }
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
}

function toStateError(error: unknown, path: string): HermesError {
  if (error instanceof HermesError) return error;
  if (isSqliteError(error, 'SQLITE_NOTADB', 'SQLITE_CORRUPT')) {
    return new HermesError(
      ERROR_CODES.STATE_DB,
      `state database ${path} is not a SQLite database or is corrupt (${describeError(error)}); ` +
        'move it aside to start fresh, or restore a backup',
      { cause: error },
    );
  }
  return new HermesError(ERROR_CODES.STATE_DB, `cannot open state database ${path}: ${describeError(error)}`, {
    cause: error,
  });
}

/**
 * Opens (creating parent directories) the SQLite state database at `path` in WAL mode and brings
 * its schema up to date; throws a STATE_DB HermesError naming the path when it cannot.
 */
export function openStore(path: string, options: StoreOptions = {}): Store {
  const now = options.now ?? Date.now;
  let db: SqliteDatabase;
  try {
    if (path !== ':memory:' && path !== '') prepareStateFile(path);
    db = openSqlite(path);
  } catch (error) {
    throw toStateError(error, path);
  }
  try {
    configure(db, path);
    const before = schemaVersionBefore(db);
    const version = migrate(db, MIGRATIONS, { now, path });
    // schema steps just applied (a new file or an upgrade) leave a WAL that is not the gateway's
    // traffic: fold it into the file now, so the background checkpoints start only on real writes
    if (version !== before) checkpointAfterMigrations(db);
    if (path !== ':memory:' && path !== '' && !db.memory) tightenStateFiles(path);
  } catch (error) {
    db.close();
    throw toStateError(error, path);
  }

  const inFile = path !== ':memory:' && path !== '' && !db.memory;
  const checkpoints =
    inFile && options.backgroundCheckpoints !== false
      ? backgroundCheckpoints(db, path, { busyTimeoutMs: BUSY_TIMEOUT_MS })
      : null;
  const platformState = createPlatformStateRepo(db, now);
  const schemaVersion = db.prepare<[], number>('SELECT COALESCE(MAX(version), 0) FROM schema_migrations').pluck();
  // one transaction function for every caller: `db.transaction(fn)` builds four wrappers per call,
  // which the group commit (one outer transaction and a savepoint per write) paid on every message
  const inTransaction = db.transaction((fn: () => unknown) => fn());
  const sessions = createSessionsRepo(db, now);
  const searchIndex = createSearchIndex(db);
  const scope = new WriteScope(db);
  return {
    path,
    db,
    sessions,
    childSessions: createChildSessionsRepo(db, now, sessions, options.redact),
    transcripts: createTranscriptsRepo(db, now, options.redact, searchIndex, scope),
    sessionModels: createSessionModelsRepo(db, now),
    usageCounters: createUsageCountersRepo(db),
    contextSummaries: createContextSummariesRepo(db, now, options.redact),
    cronJobs: createCronJobsRepo(db, now),
    inbox: createInboxRepo(db, now, platformState, scope),
    outbox: createOutboxRepo(db, now, scope),
    platformState,
    pairing: createPairingRepo(db, options.randomInt === undefined ? { now } : { now, randomInt: options.randomInt }),
    apiResponses: createApiResponsesRepo(db, now),
    sessionSearch: createSessionSearchRepo(db, searchIndex),
    memorySnapshots: createMemorySnapshotsRepo(db, now),
    identityLinks: createIdentityLinksRepo(db, now),
    pruner: createPruner(db, now),
    transaction: <T>(fn: () => T) => inTransaction.immediate(fn) as T,
    unit: <T>(fn: () => T) => scope.unit(fn),
    schemaVersion: () => schemaVersion.get() ?? 0,
    close() {
      checkpoints?.close();
      if (db.open) db.close();
    },
  };
}

function schemaVersionBefore(db: SqliteDatabase): number {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
  return table === undefined ? 0 : readSchemaVersion(db);
}

function checkpointAfterMigrations(db: SqliteDatabase): void {
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
  } catch {
    // busy (another process reading): the background checkpoints copy it later
  }
}

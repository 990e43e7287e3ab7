import { HermesError } from '@hermes/protocol';
import type pg from 'pg';
import type { AsyncStore } from '../async-store.js';
import { pgCommit } from '../commit.js';
import { MIGRATIONS } from '../migrations/index.js';
import type { RandomInt } from '../pairing/pairing-code.js';
import { maskDatabaseUrl } from './mask-url.js';
import { createPgChildSessionsRepo } from './pg-child-sessions.js';
import { createPgCronJobsRepo } from './pg-cron-jobs.js';
import { inPgTransaction, openPgPool, type PgQueryable, pgStateError } from './pg-db.js';
import { createPgIdentityLinksRepo } from './pg-identity-links.js';
import { createPgInboxRepo } from './pg-inbox.js';
import { migratePg, readPgSchemaVersion } from './pg-migrate.js';
import { createPgOutboxRepo } from './pg-outbox.js';
import { createPgPairingRepo } from './pg-pairing.js';
import { createPgPlatformStateRepo } from './pg-platform-state.js';
import { createPgPruner } from './pg-pruner.js';
import { createPgSessionSearchRepo } from './pg-session-search.js';
import { createPgSessionsRepo } from './pg-sessions.js';
import {
  createPgApiResponsesRepo,
  createPgContextSummariesRepo,
  createPgMemorySnapshotsRepo,
  createPgSessionModelsRepo,
} from './pg-small-repos.js';
import { createPgTranscriptsRepo } from './pg-transcripts.js';
import { createPgUsageCountersRepo } from './pg-usage-counters.js';

export interface PgStoreOptions {
  /** Milliseconds since the epoch; every stored timestamp comes from here. Defaults to `Date.now`. */
  now?: () => number;
  /** A uniform random integer in [0, max), for pairing codes. Defaults to `crypto.randomInt`. */
  randomInt?: RandomInt;
  /** Applied to transcript and summary text before it is stored (the gateway's secret redactor). */
  redact?: (text: string) => string;
  /** Most pooled connections (default 10). */
  maxConnections?: number;
}

/** The repositories of an AsyncStore, without its lifecycle. */
export type PgRepos = Omit<AsyncStore, 'backend' | 'location' | 'commit' | 'schemaVersion' | 'close'>;

export interface PgStore extends AsyncStore {
  readonly backend: 'postgres';
  /** The pool, for later packages' repositories and the cluster primitives. */
  readonly pool: pg.Pool;
  /**
   * Runs `fn` in one transaction: every repository it is given runs its statements on that
   * transaction's client (a repository's own multi-statement writes join it). Any error rolls back.
   */
  transaction<T>(fn: (repos: PgRepos) => Promise<T>): Promise<T>;
}

/** Every repository on `db`: the pool, or one client inside a transaction. */
function pgRepos(db: PgQueryable, now: () => number, options: PgStoreOptions): PgRepos {
  return {
    sessions: createPgSessionsRepo(db, now),
    transcripts: createPgTranscriptsRepo(db, now, options.redact),
    childSessions: createPgChildSessionsRepo(db, now, options.redact),
    sessionModels: createPgSessionModelsRepo(db, now),
    usageCounters: createPgUsageCountersRepo(db),
    contextSummaries: createPgContextSummariesRepo(db, now, options.redact),
    cronJobs: createPgCronJobsRepo(db, now),
    inbox: createPgInboxRepo(db, now),
    outbox: createPgOutboxRepo(db, now),
    platformState: createPgPlatformStateRepo(db, now),
    pairing: createPgPairingRepo(db, options.randomInt === undefined ? { now } : { now, randomInt: options.randomInt }),
    apiResponses: createPgApiResponsesRepo(db, now),
    sessionSearch: createPgSessionSearchRepo(db),
    memorySnapshots: createPgMemorySnapshotsRepo(db, now),
    identityLinks: createPgIdentityLinksRepo(db, now),
    pruner: createPgPruner(db, now),
  };
}

/**
 * Opens a pool on the PostgreSQL database at `url` and brings its schema up to date (the same
 * migrations as state.db, each step's `pg` SQL). Throws a STATE_DB HermesError naming the database
 * (password masked) when it cannot connect or migrate.
 */
export async function openPgStore(url: string, options: PgStoreOptions = {}): Promise<PgStore> {
  const now = options.now ?? Date.now;
  const pool = await openPgPool(url, options.maxConnections === undefined ? {} : { max: options.maxConnections });
  try {
    await migratePg(pool, MIGRATIONS, { now, url });
  } catch (error) {
    await pool.end().catch(() => undefined);
    if (error instanceof HermesError) throw error;
    throw pgStateError(url, 'cannot open the state database', error);
  }
  let closed: Promise<void> | null = null;
  const transaction: PgStore['transaction'] = (fn) =>
    inPgTransaction(pool, (client) => fn(pgRepos(client, now, options)));
  return {
    backend: 'postgres',
    location: maskDatabaseUrl(url),
    pool,
    ...pgRepos(pool, now, options),
    transaction,
    commit: pgCommit(transaction),
    schemaVersion: () => readPgSchemaVersion(pool),
    close() {
      closed ??= pool.end();
      return closed;
    },
  };
}

import { HermesError } from '@hermes/protocol';
import type pg from 'pg';
import type { AsyncStore } from '../async-store.js';
import { MIGRATIONS } from '../migrations/index.js';
import type { RandomInt } from '../pairing/pairing-code.js';
import { maskDatabaseUrl } from './mask-url.js';
import { createPgChildSessionsRepo } from './pg-child-sessions.js';
import { createPgCronJobsRepo } from './pg-cron-jobs.js';
import { openPgPool, pgStateError } from './pg-db.js';
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

export interface PgStore extends AsyncStore {
  readonly backend: 'postgres';
  /** The pool, for later packages' repositories and the cluster primitives. */
  readonly pool: pg.Pool;
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
  return {
    backend: 'postgres',
    location: maskDatabaseUrl(url),
    pool,
    sessions: createPgSessionsRepo(pool, now),
    transcripts: createPgTranscriptsRepo(pool, now, options.redact),
    childSessions: createPgChildSessionsRepo(pool, now, options.redact),
    sessionModels: createPgSessionModelsRepo(pool, now),
    contextSummaries: createPgContextSummariesRepo(pool, now, options.redact),
    cronJobs: createPgCronJobsRepo(pool, now),
    inbox: createPgInboxRepo(pool, now),
    outbox: createPgOutboxRepo(pool, now),
    platformState: createPgPlatformStateRepo(pool, now),
    pairing: createPgPairingRepo(
      pool,
      options.randomInt === undefined ? { now } : { now, randomInt: options.randomInt },
    ),
    apiResponses: createPgApiResponsesRepo(pool, now),
    sessionSearch: createPgSessionSearchRepo(pool),
    memorySnapshots: createPgMemorySnapshotsRepo(pool, now),
    pruner: createPgPruner(pool, now),
    schemaVersion: () => readPgSchemaVersion(pool),
    close() {
      closed ??= pool.end();
      return closed;
    },
  };
}

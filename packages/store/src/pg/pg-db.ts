/**
 * The PostgreSQL connection pool of a store, the query helpers the repositories share, and
 * transactions on one pooled client (`BEGIN` … `COMMIT`, `ROLLBACK` on any error).
 */
import { ERROR_CODES, HermesError } from '@hermes/protocol';
import type pg from 'pg';
import { maskDatabaseUrl } from './mask-url.js';

/** A pool or one of its clients: what a repository statement runs on. */
export type PgQueryable = pg.Pool | pg.PoolClient;

const INT8_OID = 20;

type PgModule = typeof pg;
let loading: Promise<PgModule> | null = null;

/** `pg`, loaded on first use: commands that never open PostgreSQL do not pay for it at start-up. */
async function loadPg(): Promise<PgModule> {
  loading ??= import('pg').then((module) => module.default);
  return loading;
}

export interface PgPoolOptions {
  /** Most connections the pool opens (default 10). */
  max?: number;
}

/** Opens a pool on `url` (nothing connects until the first query). Its errors never name the password. */
export async function openPgPool(url: string, options: PgPoolOptions = {}): Promise<pg.Pool> {
  const lib = await loadPg();
  // BIGINT (timestamps in ms, row ids, COUNT(*)) as a JS number: every value Hermes stores fits in 2^53
  const types: pg.CustomTypesConfig = {
    getTypeParser: ((oid: number, format?: string) =>
      oid === INT8_OID && format !== 'binary'
        ? (value: string) => Number(value)
        : lib.types.getTypeParser(oid, format as 'text')) as pg.CustomTypesConfig['getTypeParser'],
  };
  const pool = new lib.Pool({ connectionString: url, max: options.max ?? 10, types, connectionTimeoutMillis: 10_000 });
  // an idle client losing its connection (the server restarted) must not take the process down
  pool.on('error', () => undefined);
  return pool;
}

/** The rows of `sql` with `params`. */
export async function pgRows<R extends pg.QueryResultRow>(
  db: PgQueryable,
  sql: string,
  params: readonly unknown[] = [],
): Promise<R[]> {
  const result = await db.query<R>(sql, params as unknown[]);
  return result.rows;
}

/** The first row of `sql`, or undefined. */
export async function pgRow<R extends pg.QueryResultRow>(
  db: PgQueryable,
  sql: string,
  params: readonly unknown[] = [],
): Promise<R | undefined> {
  return (await pgRows<R>(db, sql, params))[0];
}

/** How many rows `sql` changed. */
export async function pgChanges(db: PgQueryable, sql: string, params: readonly unknown[] = []): Promise<number> {
  const result = await db.query(sql, params as unknown[]);
  return result.rowCount ?? 0;
}

/** A pooled client (already inside a transaction), not the pool. */
function isClient(db: PgQueryable): db is pg.PoolClient {
  return typeof (db as { release?: unknown }).release === 'function';
}

/**
 * Runs `fn` on one client inside `BEGIN` … `COMMIT`; any error rolls back and is rethrown. Given a
 * client (a repository bound to a transaction, `PgStore.transaction`), `fn` runs inside that one.
 */
export async function inPgTransaction<T>(db: PgQueryable, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  if (isClient(db)) return fn(db);
  const client = await db.connect();
  let broken = false;
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    // a client that cannot even roll back (its connection is gone) is dropped, not pooled again
    await client.query('ROLLBACK').catch(() => {
      broken = true;
    });
    throw error;
  } finally {
    client.release(broken);
  }
}

/** The SQLSTATE of a PostgreSQL error, if it is one. */
export function pgErrorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** A STATE_DB HermesError naming the (masked) database and what failed. */
export function pgStateError(url: string, what: string, error: unknown): HermesError {
  const message = error instanceof Error ? error.message : String(error);
  return new HermesError(ERROR_CODES.STATE_DB, `PostgreSQL ${maskDatabaseUrl(url)}: ${what}: ${message}`, {
    cause: error,
  });
}

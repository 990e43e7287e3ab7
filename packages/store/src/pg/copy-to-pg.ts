/**
 * `hermes state copy --to postgres://…`: every table of a SQLite state.db into a PostgreSQL database
 * at the same schema version, in one PostgreSQL transaction, read from one SQLite snapshot. A target
 * holding any row is refused unless `force` (then emptied first, in the same transaction). The row
 * counts of every table are compared before COMMIT: a mismatch rolls everything back.
 */
import { ERROR_CODES, HermesError } from '@hermes/protocol';
import type pg from 'pg';
import type { SqliteDatabase } from '../sqlite.js';
import { inPgTransaction, pgRow } from './pg-db.js';

/** Copied tables, parents before children; `order` keeps SQLite's insertion order (rowid) where it matters. */
export const COPY_TABLES: readonly { readonly name: string; readonly order: string; readonly identity?: string }[] = [
  { name: 'sessions', order: 'rowid' },
  { name: 'messages', order: 'id', identity: 'id' },
  { name: 'inbox', order: 'id', identity: 'id' },
  { name: 'outbox', order: 'id', identity: 'id' },
  { name: 'platform_state', order: 'platform, key' },
  { name: 'pairing_requests', order: 'rowid' },
  { name: 'pairing_failures', order: 'id', identity: 'id' },
  { name: 'approved_users', order: 'platform, user_id' },
  { name: 'api_responses', order: 'rowid' },
  { name: 'memory_snapshots', order: 'rowid' },
  { name: 'child_sessions', order: 'rowid' },
  { name: 'session_models', order: 'rowid' },
  { name: 'context_summaries', order: 'id', identity: 'id' },
  { name: 'cron_jobs', order: 'rowid' },
  { name: 'cron_fires', order: 'id', identity: 'id' },
  { name: 'identity_links', order: 'rowid' },
  { name: 'identity_link_codes', order: 'rowid' },
  { name: 'usage_counters', order: 'user_key, period' },
];

/** Tables of state.db that are not copied: the bookkeeping (PostgreSQL has its own) and the FTS5 index (PostgreSQL's is a generated column). */
export const NOT_COPIED = /^(schema_migrations|messages_fts.*|sqlite_.*)$/;

export interface CopyResult {
  tables: { table: string; sqlite: number; postgres: number }[];
  /** True when `force` emptied a target that held rows. */
  replaced: boolean;
}

const BATCH_PARAMS = 30_000;

function columnsOf(db: SqliteDatabase, table: string): string[] {
  return db
    .prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}') ORDER BY cid`)
    .all()
    .map((c) => c.name);
}

async function countPg(client: pg.PoolClient, table: string): Promise<number> {
  return (await pgRow<{ n: number }>(client, `SELECT COUNT(*) AS n FROM ${table}`))?.n ?? 0;
}

async function insertBatch(client: pg.PoolClient, table: string, columns: string[], rows: unknown[][]): Promise<void> {
  const values: unknown[] = [];
  const tuples = rows.map((row) => {
    const base = values.length;
    values.push(...row);
    return `(${row.map((_, i) => `$${base + i + 1}`).join(', ')})`;
  });
  await client.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}`, values);
}

async function copyTable(db: SqliteDatabase, client: pg.PoolClient, table: string, order: string): Promise<void> {
  const columns = columnsOf(db, table);
  const perBatch = Math.max(1, Math.floor(BATCH_PARAMS / columns.length));
  // streamed: a large transcript table never sits in memory whole (nothing else uses `db` meanwhile)
  const rows = db
    .prepare(`SELECT ${columns.join(', ')} FROM ${table} ORDER BY ${order}`)
    .raw()
    .iterate() as IterableIterator<unknown[]>;
  let batch: unknown[][] = [];
  let copied = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    try {
      await insertBatch(client, table, columns, batch);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new HermesError(ERROR_CODES.STATE_DB, `copying table ${table} (rows ${copied + 1}…) failed: ${message}`, {
        cause: error,
      });
    }
    copied += batch.length;
    batch = [];
  };
  try {
    for (const row of rows) {
      batch.push(row);
      if (batch.length >= perBatch) await flush();
    }
    await flush();
  } finally {
    rows.return?.();
  }
}

/**
 * Copies every COPY_TABLES table of `db` (an opened, migrated state.db) into the migrated PostgreSQL
 * database of `pool`. Throws STATE_DB, having changed nothing, when the target holds rows (unless
 * `force`), a row is refused, or a count differs after the copy.
 */
export async function copySqliteToPg(
  db: SqliteDatabase,
  pool: pg.Pool,
  options: { force?: boolean } = {},
): Promise<CopyResult> {
  // one read transaction: every table comes from the same snapshot of state.db
  db.exec('BEGIN');
  try {
    return await inPgTransaction(pool, async (client) => {
      const held: string[] = [];
      for (const { name } of COPY_TABLES) {
        const n = await countPg(client, name);
        if (n > 0) held.push(`${name} (${n})`);
      }
      if (held.length > 0 && options.force !== true) {
        throw new HermesError(
          ERROR_CODES.STATE_DB,
          `the target database is not empty: ${held.join(', ')}; copy into an empty database, or pass --force to replace its rows`,
        );
      }
      if (held.length > 0) {
        await client.query(`TRUNCATE ${COPY_TABLES.map((t) => t.name).join(', ')} RESTART IDENTITY CASCADE`);
      }
      for (const { name, order } of COPY_TABLES) await copyTable(db, client, name, order);
      for (const { name, identity } of COPY_TABLES) {
        if (identity === undefined) continue;
        await client.query(
          `SELECT setval(pg_get_serial_sequence('${name}', '${identity}'), COALESCE(MAX(${identity}), 0) + 1, false) FROM ${name}`,
        );
      }
      const tables: CopyResult['tables'] = [];
      for (const { name } of COPY_TABLES) {
        const sqlite = db.prepare<[], number>(`SELECT COUNT(*) FROM ${name}`).pluck().get() ?? 0;
        tables.push({ table: name, sqlite, postgres: await countPg(client, name) });
      }
      const off = tables.filter((t) => t.sqlite !== t.postgres);
      if (off.length > 0) {
        throw new HermesError(
          ERROR_CODES.STATE_DB,
          `row counts differ after the copy, nothing was committed: ${off.map((t) => `${t.table} ${t.sqlite} -> ${t.postgres}`).join(', ')}`,
        );
      }
      return { tables, replaced: held.length > 0 };
    });
  } finally {
    db.exec('COMMIT');
  }
}

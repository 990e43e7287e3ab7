import { ERROR_CODES, HermesError } from '@hermes/protocol';
import type pg from 'pg';
import { assertMigrationList } from '../migrate.js';
import type { Migration } from '../migration.js';
import { maskDatabaseUrl } from './mask-url.js';
import { inPgTransaction, pgRow } from './pg-db.js';

const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  applied_at BIGINT NOT NULL
)`;

/** Any fixed number: the advisory lock every instance takes while it migrates. */
const MIGRATION_LOCK = 0x6865726d; // "herm"

/** Highest applied schema version (0 for a fresh database). */
export async function readPgSchemaVersion(db: pg.Pool | pg.PoolClient): Promise<number> {
  const table = await pgRow<{ t: string | null }>(db, "SELECT to_regclass('schema_migrations')::text AS t");
  if (!table?.t) return 0;
  const row = await pgRow<{ v: number }>(db, 'SELECT COALESCE(MAX(version), 0) AS v FROM schema_migrations');
  return row?.v ?? 0;
}

/**
 * Applies the pending migrations' `pg` SQL in order, each in its own transaction, under an advisory
 * lock so that several instances starting at once apply each step once. Returns the version reached;
 * a database newer than the list is refused (STATE_DB, naming both versions and the masked URL).
 */
export async function migratePg(
  pool: pg.Pool,
  migrations: readonly Migration[],
  options: { now: () => number; url: string },
): Promise<number> {
  assertMigrationList(migrations);
  const where = maskDatabaseUrl(options.url);
  for (const migration of migrations) {
    await inPgTransaction(pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await client.query(CREATE_MIGRATIONS_TABLE);
      const current = await readPgSchemaVersion(client);
      if (current > migrations.length) {
        throw new HermesError(
          ERROR_CODES.STATE_DB,
          `state database ${where} has schema version ${current}, but this Hermes only knows versions up to ${migrations.length}; ` +
            'upgrade Hermes, or restore a backup made by this version',
        );
      }
      if (current >= migration.version) return false;
      try {
        await client.query(migration.pg);
      } catch (error) {
        throw new HermesError(
          ERROR_CODES.STATE_DB,
          `state database ${where}: migration ${migration.version} "${migration.name}" failed and was rolled back: ${
            error instanceof Error ? error.message : String(error)
          }`,
          { cause: error },
        );
      }
      await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
        migration.version,
        migration.name,
        options.now(),
      ]);
      return true;
    });
  }
  return readPgSchemaVersion(pool);
}

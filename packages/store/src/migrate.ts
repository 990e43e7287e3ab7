import { ERROR_CODES, HermesError } from '@hermes/protocol';
import type { SqliteMigration } from './migration.js';
import { describeError, type SqliteDatabase } from './sqlite.js';

export interface MigrateOptions {
  /** Milliseconds since the epoch, recorded as `applied_at`. */
  now: () => number;
  /** The database path, named in error messages. */
  path: string;
}

const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  applied_at INTEGER NOT NULL
)`;

/** Throws unless versions run 1, 2, 3, … in array order with non-empty names (a programming error, caught by tests). */
export function assertMigrationList(migrations: readonly SqliteMigration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(
        `migration list out of order: entry ${index} ("${migration.name}") has version ${migration.version}, expected ${index + 1}`,
      );
    }
    if (migration.name.trim() === '') throw new Error(`migration ${migration.version} has an empty name`);
  });
}

/** Highest applied schema version of `db` (0 for a fresh database); `schema_migrations` must exist. */
export function readSchemaVersion(db: SqliteDatabase): number {
  return db.prepare<[], number>('SELECT COALESCE(MAX(version), 0) FROM schema_migrations').pluck().get() ?? 0;
}

/**
 * Applies the pending `migrations` in order, each in its own IMMEDIATE transaction (so two processes
 * opening a fresh file do not both apply it), and returns the resulting version. A database whose
 * version is newer than the list is refused with a STATE_DB HermesError naming both versions.
 */
export function migrate(db: SqliteDatabase, migrations: readonly SqliteMigration[], options: MigrateOptions): number {
  assertMigrationList(migrations);
  db.exec(CREATE_MIGRATIONS_TABLE);
  const known = migrations.length;
  const current = readSchemaVersion(db);
  if (current > known) {
    throw new HermesError(
      ERROR_CODES.STATE_DB,
      `state database ${options.path} has schema version ${current}, but this Hermes only knows versions up to ${known}; ` +
        'upgrade Hermes, or restore a backup made by this version',
    );
  }
  const record = db.prepare<[number, string, number]>(
    'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)',
  );
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    const apply = db.transaction(() => {
      // Another connection may have applied it while we waited for the write lock.
      if (readSchemaVersion(db) >= migration.version) return;
      if ('sql' in migration) db.exec(migration.sql);
      else migration.up(db);
      record.run(migration.version, migration.name, options.now());
    });
    try {
      apply.immediate();
    } catch (error) {
      throw new HermesError(
        ERROR_CODES.STATE_DB,
        `state database ${options.path}: migration ${migration.version} "${migration.name}" failed and was rolled back: ${describeError(error)}`,
        { cause: error },
      );
    }
  }
  return readSchemaVersion(db);
}

import type { SqliteDatabase } from './sqlite.js';

/** The SQLite half of a schema step: plain `sql`, or an `up(db)` function. */
export type SqliteMigration =
  | { readonly version: number; readonly name: string; readonly sql: string }
  | { readonly version: number; readonly name: string; readonly up: (db: SqliteDatabase) => void };

/**
 * One schema step, for both backends. `version`s are 1, 2, 3, … in array order; a migration is never
 * edited once released, only followed by a new one. Beside its SQLite `sql` (or `up`) it carries
 * `pg`: the same step in PostgreSQL's SQL, run in one transaction. A PostgreSQL database reaches the
 * newest schema step by step, like a SQLite file does.
 */
export type Migration = SqliteMigration & { readonly pg: string };

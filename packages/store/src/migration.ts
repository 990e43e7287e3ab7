import type { SqliteDatabase } from './sqlite.js';

/**
 * One schema step, for both backends. `version`s are 1, 2, 3, … in array order; a migration is never
 * edited once released, only followed by a new one. Give either plain `sql` or an `up(db)` function
 * for SQLite, and `pg`: the same step in PostgreSQL's SQL (run in one transaction). A PostgreSQL
 * database starts at the newest schema step by step, like a SQLite file does.
 */
export type Migration = (
  | { readonly version: number; readonly name: string; readonly sql: string }
  | { readonly version: number; readonly name: string; readonly up: (db: SqliteDatabase) => void }
) & { readonly pg: string };

import type { SqliteDatabase } from './sqlite.js';

/**
 * One schema step. `version`s are 1, 2, 3, … in array order; a migration is never edited once
 * released, only followed by a new one. Give either plain `sql` or an `up(db)` function.
 */
export type Migration =
  | { readonly version: number; readonly name: string; readonly sql: string }
  | { readonly version: number; readonly name: string; readonly up: (db: SqliteDatabase) => void };

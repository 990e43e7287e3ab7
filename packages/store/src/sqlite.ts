// The raw better-sqlite3 handle and its error type, named once for the whole package.
import Database from 'better-sqlite3';

/** An open better-sqlite3 connection (what `store.db` is). */
export type SqliteDatabase = Database.Database;

/** A prepared better-sqlite3 statement with its bind parameters and row type. */
export type SqliteStatement<Params extends unknown[] = unknown[], Row = unknown> = Database.Statement<Params, Row>;

/** Opens a connection; the caller owns configuring and closing it. */
export function openSqlite(path: string): SqliteDatabase {
  return new Database(path);
}

/** True when `error` is a SQLite error whose extended code is one of `codes` (or any SQLite error when none given). */
export function isSqliteError(error: unknown, ...codes: string[]): error is Error & { code: string } {
  if (!(error instanceof Database.SqliteError)) return false;
  return codes.length === 0 || codes.includes(error.code);
}

/** A short human description of any thrown value, for wrapping into a HermesError message. */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

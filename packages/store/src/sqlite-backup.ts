/**
 * A consistent copy of a state.db while it is in use: SQLite's online backup API (through
 * better-sqlite3), page by page, never a file copy that could catch a half-written WAL.
 */
import Database from 'better-sqlite3';

/** Copies the database at `source` to `destination` (a new file); resolves with its page count. */
export async function backupSqliteFile(source: string, destination: string): Promise<{ pages: number }> {
  const db = new Database(source, { readonly: true, fileMustExist: true });
  try {
    const progress = await db.backup(destination);
    return { pages: progress.totalPages };
  } finally {
    db.close();
  }
}

// @hermes/store: the SQLite state database (sessions, transcripts; later gateway tables).

// Schema
export type { Migration } from './migration.js';
export { MIGRATIONS } from './migrations/index.js';
// Opening
export { openStore, type Store, type StoreOptions } from './open-store.js';
// Sessions
export { newSessionId } from './session-id.js';
export type { ListSessionsOptions, NewSession, SessionRow, SessionsRepo } from './sessions-repo.js';
// Raw SQLite access for later packages' repositories
export { isSqliteError, type SqliteDatabase, type SqliteStatement } from './sqlite.js';
// Transcripts
export type { TranscriptsRepo } from './transcripts-repo.js';

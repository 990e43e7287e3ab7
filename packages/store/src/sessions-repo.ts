import { ERROR_CODES, HermesError } from '@hermes/protocol';
import { newSessionId } from './session-id.js';
import { isSqliteError, type SqliteDatabase } from './sqlite.js';

/** One row of `sessions`; times are milliseconds since the epoch. */
export interface SessionRow {
  id: string;
  sessionKey: string;
  platform: string;
  model: string | null;
  title: string | null;
  createdAt: number;
  updatedAt: number;
  endedAt: number | null;
  endReason: string | null;
  /** the identity key of the user it was opened for (NULL: stored before identities, or nobody's) */
  userKey: string | null;
}

export interface NewSession {
  /** The session key (which chat/user/thread this conversation belongs to). */
  key: string;
  platform: string;
  model?: string;
  title?: string;
  /** the identity key of the user it is opened for (`session_search` answers a user from their own sessions) */
  userKey?: string;
  /** Defaults to `sess_` + 16 random hex characters. */
  id?: string;
}

export interface ListSessionsOptions {
  limit: number;
  platform?: string;
}

export interface IdleSessionsQuery {
  /** last active before this time (ms since the epoch) */
  before: number;
  /** of these platforms only */
  platforms: readonly string[];
  limit: number;
}

export interface SessionsRepo {
  /** Inserts a new, active session and returns its row. */
  create(session: NewSession): SessionRow;
  /** The session with this id, if any. */
  get(id: string): SessionRow | undefined;
  /** The latest session of `key` that has not ended, if any. */
  activeByKey(key: string): SessionRow | undefined;
  /** The newest session of `key`, ended or not, if any. */
  latestByKey(key: string): SessionRow | undefined;
  /** Sessions not ended, of the given platforms, last active before a time: the longest idle first. */
  idleActive(query: IdleSessionsQuery): SessionRow[];
  /** Marks the session ended with `reason`; false if it does not exist or had already ended. */
  end(id: string, reason: string): boolean;
  /** Sets `updatedAt` to now; false if the session does not exist. */
  touch(id: string): boolean;
  /** Most recently updated sessions first, optionally of one platform. */
  list(options: ListSessionsOptions): SessionRow[];
  /** Gives the sessions stored before identities (no user) to `userKey` (`users.owner`); how many. */
  claimUnowned(userKey: string): number;
  /** The sessions of one key (one chat's, one user's), ended ones too, most recently updated first. */
  byKey(key: string, limit: number): SessionRow[];
  /** Sets (or, with null, clears) a session's title; false when there is no such session. */
  setTitle(id: string, title: string | null): boolean;
  /** Makes an ended session active again (`/resume`); false when it is not ended or does not exist. */
  reopen(id: string): boolean;
  /** Deletes a session with its transcript and everything kept about it; false when there was none. */
  remove(id: string): boolean;
}

export interface SessionRecord {
  id: string;
  session_key: string;
  platform: string;
  model: string | null;
  title: string | null;
  created_at: number;
  updated_at: number;
  ended_at: number | null;
  end_reason: string | null;
  user_key: string | null;
}

export const COLUMNS =
  'id, session_key, platform, model, title, created_at, updated_at, ended_at, end_reason, user_key';

export function toRow(record: SessionRecord): SessionRow {
  return {
    id: record.id,
    sessionKey: record.session_key,
    platform: record.platform,
    model: record.model,
    title: record.title,
    createdAt: record.created_at,
    updatedAt: record.updated_at,
    endedAt: record.ended_at,
    endReason: record.end_reason,
    userKey: record.user_key,
  };
}

/** Builds the sessions repository; every statement is prepared here, once. */
export function createSessionsRepo(db: SqliteDatabase, now: () => number): SessionsRepo {
  const insert = db.prepare<[SessionRecord]>(
    `INSERT INTO sessions (${COLUMNS}) VALUES
     (@id, @session_key, @platform, @model, @title, @created_at, @updated_at, @ended_at, @end_reason, @user_key)`,
  );
  const byId = db.prepare<[string], SessionRecord>(`SELECT ${COLUMNS} FROM sessions WHERE id = ?`);
  const activeByKey = db.prepare<[string], SessionRecord>(
    `SELECT ${COLUMNS} FROM sessions WHERE session_key = ? AND ended_at IS NULL
     ORDER BY created_at DESC, rowid DESC LIMIT 1`,
  );
  const latestByKey = db.prepare<[string], SessionRecord>(
    `SELECT ${COLUMNS} FROM sessions WHERE session_key = ? ORDER BY created_at DESC, rowid DESC LIMIT 1`,
  );
  // walks the partial index of active sessions only (sessions_active_by_key), never the ended ones
  const idleActive = db.prepare<[number, string, number], SessionRecord>(
    `SELECT ${COLUMNS} FROM sessions INDEXED BY sessions_active_by_key
     WHERE ended_at IS NULL AND updated_at < ? AND platform IN (SELECT value FROM json_each(?))
     ORDER BY updated_at, rowid LIMIT ?`,
  );
  const end = db.prepare<[number, string, number, string]>(
    'UPDATE sessions SET ended_at = ?, end_reason = ?, updated_at = ? WHERE id = ? AND ended_at IS NULL',
  );
  const touch = db.prepare<[number, string]>('UPDATE sessions SET updated_at = ? WHERE id = ?');
  const listAll = db.prepare<[number], SessionRecord>(
    `SELECT ${COLUMNS} FROM sessions ORDER BY updated_at DESC, rowid DESC LIMIT ?`,
  );
  const listByPlatform = db.prepare<[string, number], SessionRecord>(
    `SELECT ${COLUMNS} FROM sessions WHERE platform = ? ORDER BY updated_at DESC, rowid DESC LIMIT ?`,
  );

  const claimUnowned = db.prepare<[string]>('UPDATE sessions SET user_key = ? WHERE user_key IS NULL');
  const byKey = db.prepare<[string, number], SessionRecord>(
    `SELECT ${COLUMNS} FROM sessions WHERE session_key = ? ORDER BY updated_at DESC, rowid DESC LIMIT ?`,
  );
  const setTitle = db.prepare<[string | null, string]>('UPDATE sessions SET title = ? WHERE id = ?');
  const reopen = db.prepare<[number, string]>(
    'UPDATE sessions SET ended_at = NULL, end_reason = NULL, updated_at = ? WHERE id = ? AND ended_at IS NOT NULL',
  );
  const remove = db.prepare<[string]>('DELETE FROM sessions WHERE id = ?');

  return {
    claimUnowned: (userKey) => claimUnowned.run(userKey).changes,
    byKey: (key, limit) => byKey.all(key, limit).map(toRow),
    setTitle: (id, title) => setTitle.run(title, id).changes > 0,
    reopen: (id) => reopen.run(now(), id).changes > 0,
    remove: (id) => remove.run(id).changes > 0,
    create(session) {
      const at = now();
      const record: SessionRecord = {
        id: session.id ?? newSessionId(),
        session_key: session.key,
        platform: session.platform,
        model: session.model ?? null,
        title: session.title ?? null,
        created_at: at,
        updated_at: at,
        ended_at: null,
        end_reason: null,
        user_key: session.userKey ?? null,
      };
      try {
        insert.run(record);
      } catch (error) {
        if (isSqliteError(error, 'SQLITE_CONSTRAINT_PRIMARYKEY')) {
          throw new HermesError(ERROR_CODES.STATE_DB, `session id ${record.id} already exists`, { cause: error });
        }
        throw error;
      }
      return toRow(record);
    },
    get(id) {
      const record = byId.get(id);
      return record === undefined ? undefined : toRow(record);
    },
    activeByKey(key) {
      const record = activeByKey.get(key);
      return record === undefined ? undefined : toRow(record);
    },
    latestByKey(key) {
      const record = latestByKey.get(key);
      return record === undefined ? undefined : toRow(record);
    },
    idleActive({ before, platforms, limit }) {
      return idleActive.all(before, JSON.stringify(platforms), limit).map(toRow);
    },
    end(id, reason) {
      const at = now();
      return end.run(at, reason, at, id).changes > 0;
    },
    touch(id) {
      return touch.run(now(), id).changes > 0;
    },
    list({ limit, platform }) {
      const records = platform === undefined ? listAll.all(limit) : listByPlatform.all(platform, limit);
      return records.map(toRow);
    },
  };
}

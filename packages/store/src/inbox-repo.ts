import { ERROR_CODES, HermesError } from '@hermes/protocol';
import type { PlatformStateRepo } from './platform-state-repo.js';
import type { SqliteDatabase } from './sqlite.js';
import { ownTransaction, type WriteScope } from './write-scope.js';

/**
 * Where an accepted inbound message is: `accepted` and `processing` are unfinished (see `pending()`);
 * `refused`: a stranger's message kept but not answered (migration 3).
 */
export type InboxStatus = 'accepted' | 'processing' | 'done' | 'skipped' | 'refused' | 'failed' | 'interrupted';

/** Every inbox status, in lifecycle order. */
export const INBOX_STATUSES: readonly InboxStatus[] = [
  'accepted',
  'processing',
  'done',
  'skipped',
  'refused',
  'failed',
  'interrupted',
];

/** One row of `inbox`; times are milliseconds since the epoch. */
export interface InboxRow {
  id: number;
  platform: string;
  /** The platform's message id: with `platform`, the dedupe key. */
  messageKey: string;
  sessionKey: string | null;
  /** The payload given to `accept`, parsed back from its JSON (the gateway stores the MessageEvent). */
  payload: unknown;
  status: InboxStatus;
  acceptedAt: number;
  updatedAt: number;
  /** How many times the row was marked `processing`. */
  attempts: number;
  /** The gateway instance answering it (several instances on PostgreSQL); null on one instance. */
  owner: string | null;
}

export interface AcceptOptions {
  sessionKey?: string;
  /** platform_state entries of the same platform (e.g. the update offset) written in the same transaction, duplicate or not. */
  state?: Readonly<Record<string, string>>;
  /** the gateway instance answering it (several instances on PostgreSQL; docs/scaling.md) */
  owner?: string;
}

/**
 * Which unfinished rows a gateway instance takes on (recovery at start; several instances on
 * PostgreSQL also take the rows of instances that stopped). One claim is one statement: two
 * instances claiming at once never both get a row.
 */
export interface InboxClaim {
  /** only rows of these platforms (the ones the instance can answer on); absent: every platform's */
  platforms?: readonly string[];
  /**
   * the instance taking the rows, written as their owner; absent: the store's only instance (one
   * gateway on state.db) takes every unfinished row, owners left as they are
   */
  owner?: string;
  /**
   * with an owner. `start` (default): rows nobody owns and rows this owner accepted before
   * `acceptedBefore` (a restart under the same id); `orphans`: rows nobody owns and rows of
   * instances that stopped: on PostgreSQL, absent from hermes_cluster_members or silent for longer
   * than `staleMs`; SQLite keeps no membership, so there every other owner counts as stopped
   */
  from?: 'start' | 'orphans';
  /** `orphans` on PostgreSQL: a member whose heartbeat is older has stopped (default 10 s) */
  staleMs?: number;
  /**
   * `start`: only this owner's rows accepted before this time (the process's start), so rows the
   * process has accepted itself, and may be running, are never taken for leftovers
   */
  acceptedBefore?: number;
}

/** A new message is accepted with its row id; a key seen before is refused. */
export type AcceptResult = { accepted: true; id: number } | { accepted: false; reason: 'duplicate' };

export interface InboxRepo {
  /** Records (platform, messageKey) and the JSON of `payload` in one transaction; a key seen before is refused. */
  accept(platform: string, messageKey: string, payload: unknown, options?: AcceptOptions): AcceptResult;
  /** Sets the row's status (marking `processing` counts an attempt); false if there is no such row. */
  mark(id: number, status: InboxStatus): boolean;
  /** The unfinished rows (`accepted` or `processing`), oldest first: what a restart must resume or report. */
  pending(): InboxRow[];
  /** Takes the unfinished rows `claim` names (recovery), oldest first. */
  claimUnfinished(claim: InboxClaim): InboxRow[];
  /** The row with this id, if any. */
  get(id: number): InboxRow | undefined;
  /** How many rows are in each status (every status present, 0 when none). */
  countByStatus(): Record<InboxStatus, number>;
  /** Deletes finished rows accepted before `before` (their dedupe keys go too); returns how many. */
  prune(before: number): number;
}

export interface InboxRecord {
  id: number;
  platform: string;
  message_key: string;
  session_key: string | null;
  payload: string;
  status: InboxStatus;
  accepted_at: number;
  updated_at: number;
  attempts: number;
  owner: string | null;
}

/** The statuses of an unfinished row, as SQL. */
export const UNFINISHED = `status IN ('accepted', 'processing')`;

export const COLUMNS =
  'id, platform, message_key, session_key, payload, status, accepted_at, updated_at, attempts, owner';

export function toRow(record: InboxRecord): InboxRow {
  let payload: unknown;
  try {
    payload = JSON.parse(record.payload);
  } catch (error) {
    throw new HermesError(ERROR_CODES.STATE_DB, `corrupt inbox row ${record.id}: payload is not JSON`, {
      cause: error,
    });
  }
  return {
    id: record.id,
    platform: record.platform,
    messageKey: record.message_key,
    sessionKey: record.session_key,
    payload,
    status: record.status,
    acceptedAt: record.accepted_at,
    updatedAt: record.updated_at,
    owner: record.owner ?? null,
    attempts: record.attempts,
  };
}

export function toJson(payload: unknown): string {
  const json = JSON.stringify(payload);
  if (json === undefined) throw new TypeError('inbox payload must be JSON-serializable');
  return json;
}

/** Builds the inbox repository; every statement and the accept transaction are created here, once. */
export function createInboxRepo(
  db: SqliteDatabase,
  now: () => number,
  state: PlatformStateRepo,
  scope?: WriteScope,
): InboxRepo {
  // ON CONFLICT DO NOTHING is INSERT OR IGNORE for the dedupe key only (other constraint errors still throw).
  // No RETURNING: a row inserted is `changes` 1 with its `lastInsertRowid` (inbox has no trigger to
  // move it), and SQLite's RETURNING gathers its rows in a table of their own first (~1 us)
  const insert = db.prepare<[string, string, string | null, string, number, number, string | null]>(
    `INSERT INTO inbox (platform, message_key, session_key, payload, status, accepted_at, updated_at, attempts, owner)
     VALUES (?, ?, ?, ?, 'accepted', ?, ?, 0, ?)
     ON CONFLICT (platform, message_key) DO NOTHING`,
  );
  const mark = db.prepare<[InboxStatus, number, InboxStatus, number]>(
    `UPDATE inbox SET status = ?, updated_at = ?, attempts = attempts + (? = 'processing') WHERE id = ?`,
  );
  const pending = db.prepare<[], InboxRecord>(
    `SELECT ${COLUMNS} FROM inbox WHERE ${UNFINISHED} ORDER BY accepted_at, id`,
  );
  const claims = prepareClaims(db);
  const byId = db.prepare<[number], InboxRecord>(`SELECT ${COLUMNS} FROM inbox WHERE id = ?`);
  const counts = db.prepare<[], { status: InboxStatus; n: number }>(
    'SELECT status, COUNT(*) AS n FROM inbox GROUP BY status',
  );
  const prune = db.prepare<[number]>(
    `DELETE FROM inbox WHERE accepted_at < ? AND status NOT IN ('accepted', 'processing')`,
  );

  const acceptTx = ownTransaction(
    db,
    scope,
    (platform: string, messageKey: string, json: string, options: AcceptOptions): AcceptResult => {
      const at = now();
      const inserted = insert.run(
        platform,
        messageKey,
        options.sessionKey ?? null,
        json,
        at,
        at,
        options.owner ?? null,
      );
      if (options.state !== undefined) {
        for (const [key, value] of Object.entries(options.state)) state.set(platform, key, value);
      }
      return inserted.changes === 0
        ? { accepted: false, reason: 'duplicate' }
        : { accepted: true, id: Number(inserted.lastInsertRowid) };
    },
  );

  return {
    accept(platform, messageKey, payload, options = {}) {
      return acceptTx(platform, messageKey, toJson(payload), options);
    },
    mark(id, status) {
      return mark.run(status, now(), status, id).changes > 0;
    },
    pending: () => pending.all().map(toRow),
    claimUnfinished(claim) {
      const platforms = claim.platforms === undefined ? null : JSON.stringify(claim.platforms);
      if (claim.owner === undefined) return claims.list.all({ platforms }).map(toRow);
      const params = { platforms, owner: claim.owner, before: claim.acceptedBefore ?? Number.MAX_SAFE_INTEGER };
      const taken = claim.from === 'orphans' ? claims.orphans.all(params) : claims.start.all(params);
      return taken.map(toRow).sort(oldestFirst);
    },
    get(id) {
      const record = byId.get(id);
      return record === undefined ? undefined : toRow(record);
    },
    countByStatus: () => statusCounts(counts.all()),
    prune: (before) => prune.run(before).changes,
  };
}

/** Every status with its count from `rows` (0 where none). */
export function statusCounts(rows: Iterable<{ status: InboxStatus; n: number }>): Record<InboxStatus, number> {
  const result: Record<InboxStatus, number> = {
    accepted: 0,
    processing: 0,
    done: 0,
    skipped: 0,
    refused: 0,
    failed: 0,
    interrupted: 0,
  };
  for (const { status, n } of rows) result[status] = n;
  return result;
}

/** Oldest accepted first (the order recovery resumes rows in). */
export function oldestFirst(a: InboxRow, b: InboxRow): number {
  return a.acceptedAt - b.acceptedAt || a.id - b.id;
}

type ClaimParams = { platforms: string | null; owner: string; before: number };

/** SQLite's claim statements; `platforms` is a JSON array, or null for every platform. */
function prepareClaims(db: SqliteDatabase) {
  const ofPlatforms = '(@platforms IS NULL OR platform IN (SELECT value FROM json_each(@platforms)))';
  const claim = (whose: string) =>
    db.prepare<[ClaimParams], InboxRecord>(
      `UPDATE inbox SET owner = @owner WHERE ${UNFINISHED} AND ${ofPlatforms} AND (${whose}) RETURNING ${COLUMNS}`,
    );
  return {
    list: db.prepare<[{ platforms: string | null }], InboxRecord>(
      `SELECT ${COLUMNS} FROM inbox WHERE ${UNFINISHED} AND ${ofPlatforms} ORDER BY accepted_at, id`,
    ),
    start: claim('owner IS NULL OR (owner = @owner AND accepted_at < @before)'),
    // no cluster membership on SQLite: every other owner has stopped
    orphans: claim('owner IS NULL OR owner <> @owner'),
  };
}

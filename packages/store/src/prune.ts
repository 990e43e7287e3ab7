/**
 * Retention: deletes what is older than a cutoff in one transaction. Sessions idle since before it
 * go with their transcripts (ON DELETE CASCADE); finished inbox rows and sent/failed outbox rows
 * accepted or written before it (never ones younger than INBOX_KEEP_MS: their dedupe keys guard
 * against platform redelivery); pairing codes expired for a full code lifetime and approve
 * failures out of the rate-limit window. Unfinished inbox rows and pending outbox rows are kept.
 */
import { PAIRING_CODE_TTL_MS, PAIRING_FAILURE_WINDOW_MS } from './pairing/pairing-limits.js';
import type { SqliteDatabase } from './sqlite.js';

/** Inbox and outbox rows younger than this are kept whatever the cutoff (Telegram redelivers for 24 h). */
export const INBOX_KEEP_MS = 2 * 24 * 60 * 60 * 1000;

/** What a prune deleted (or, dry, would delete). */
export interface PruneCounts {
  sessions: number;
  messages: number;
  inbox: number;
  outbox: number;
  pairingRequests: number;
  pairingFailures: number;
}

export interface Pruner {
  /** Deletes (or with `dryRun` only counts) what is older than `before` (ms since the epoch). */
  prune(before: number, options?: { dryRun?: boolean }): PruneCounts;
}

const INBOX_DONE = `status NOT IN ('accepted', 'processing')`;
const OUTBOX_DONE = `status <> 'pending'`;
// a pairing row stays one code lifetime after it was handed out even when its code was expired
// early (the oldest code on a full platform): it is what limits a stranger to one reply an hour
const PAIRING_GONE = 'expires_at <= ? AND created_at <= ?';

/** Builds the pruner over an open store's database; statements prepared once. */
export function createPruner(db: SqliteDatabase, now: () => number): Pruner {
  const count = (sql: string) => db.prepare<number[], number>(sql).pluck();
  const counters = {
    sessions: count('SELECT COUNT(*) FROM sessions WHERE updated_at < ?'),
    messages: count('SELECT COUNT(*) FROM messages WHERE session_id IN (SELECT id FROM sessions WHERE updated_at < ?)'),
    inbox: count(`SELECT COUNT(*) FROM inbox WHERE accepted_at < ? AND ${INBOX_DONE}`),
    outbox: count(`SELECT COUNT(*) FROM outbox WHERE created_at < ? AND ${OUTBOX_DONE}`),
    pairingRequests: count(`SELECT COUNT(*) FROM pairing_requests WHERE ${PAIRING_GONE}`),
    pairingFailures: count('SELECT COUNT(*) FROM pairing_failures WHERE at <= ?'),
  };
  const deleters = {
    sessions: db.prepare<[number]>('DELETE FROM sessions WHERE updated_at < ?'),
    inbox: db.prepare<[number]>(`DELETE FROM inbox WHERE accepted_at < ? AND ${INBOX_DONE}`),
    outbox: db.prepare<[number]>(`DELETE FROM outbox WHERE created_at < ? AND ${OUTBOX_DONE}`),
    pairingRequests: db.prepare<[number, number]>(`DELETE FROM pairing_requests WHERE ${PAIRING_GONE}`),
    pairingFailures: db.prepare<[number]>('DELETE FROM pairing_failures WHERE at <= ?'),
  };

  const run = db.transaction((before: number, dryRun: boolean): PruneCounts => {
    const at = now();
    const rowsBefore = Math.min(before, at - INBOX_KEEP_MS);
    const failuresBefore = at - PAIRING_FAILURE_WINDOW_MS;
    const counts: PruneCounts = {
      sessions: counters.sessions.get(before) ?? 0,
      messages: counters.messages.get(before) ?? 0,
      inbox: counters.inbox.get(rowsBefore) ?? 0,
      outbox: counters.outbox.get(rowsBefore) ?? 0,
      pairingRequests: counters.pairingRequests.get(at, at - PAIRING_CODE_TTL_MS) ?? 0,
      pairingFailures: counters.pairingFailures.get(failuresBefore) ?? 0,
    };
    if (dryRun) return counts;
    deleters.sessions.run(before);
    // outbox rows first: deleting their inbox rows would only set their inbox_id to NULL
    deleters.outbox.run(rowsBefore);
    deleters.inbox.run(rowsBefore);
    deleters.pairingRequests.run(at, at - PAIRING_CODE_TTL_MS);
    deleters.pairingFailures.run(failuresBefore);
    return counts;
  });

  return { prune: (before, options = {}) => run.immediate(before, options.dryRun === true) };
}

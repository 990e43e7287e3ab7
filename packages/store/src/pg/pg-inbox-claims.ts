/**
 * Unfinished inbox rows taken over by one gateway instance of several sharing a database. A claim
 * is one `UPDATE … RETURNING`: two instances claiming at once never both get a row.
 */
import { COLUMNS, type InboxRecord, type InboxRow, toRow } from '../inbox-repo.js';
import { type PgQueryable, pgRows } from './pg-db.js';

const UNFINISHED = `status IN ('accepted', 'processing')`;

export interface InboxClaim {
  /** the instance taking the rows */
  owner: string;
  /** only rows of these platforms (the ones this instance can answer on) */
  platforms: readonly string[];
  /**
   * `start`: rows nobody owns and rows this instance id owned before a restart;
   * `orphans`: rows nobody owns and rows of instances absent from hermes_cluster_members or whose
   * heartbeat is older than `staleMs`
   */
  from: 'start' | 'orphans';
  staleMs?: number;
  /**
   * `start`: only this id's rows accepted before this time (the process's start), so rows this
   * process has accepted itself, and may be running, are never taken for leftovers
   */
  acceptedBefore?: number;
}

/** Claims unfinished rows for `claim.owner`; returns them oldest first. */
export async function claimUnfinishedInbox(db: PgQueryable, claim: InboxClaim): Promise<InboxRow[]> {
  if (claim.platforms.length === 0) return [];
  const whose =
    claim.from === 'start'
      ? 'owner IS NULL OR (owner = $1 AND accepted_at < $3)'
      : `owner IS NULL OR (owner <> $1 AND owner NOT IN (
           SELECT instance_id FROM hermes_cluster_members
           WHERE heartbeat_at > now() - make_interval(secs => $3::double precision / 1000)))`;
  const params: unknown[] = [claim.owner, [...claim.platforms]];
  params.push(claim.from === 'orphans' ? (claim.staleMs ?? 10_000) : (claim.acceptedBefore ?? Number.MAX_SAFE_INTEGER));
  const rows = await pgRows<InboxRecord>(
    db,
    `UPDATE inbox SET owner = $1 WHERE ${UNFINISHED} AND platform = ANY($2::text[]) AND (${whose})
     RETURNING ${COLUMNS}`,
    params,
  );
  return rows.map(toRow).sort((a, b) => a.acceptedAt - b.acceptedAt || a.id - b.id);
}

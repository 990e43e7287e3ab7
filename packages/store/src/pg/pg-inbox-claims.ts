/**
 * Unfinished inbox rows taken over by a gateway instance on PostgreSQL (`InboxRepo.claimUnfinished`).
 * A claim is one `UPDATE … RETURNING`: two instances claiming at once never both get a row.
 */
import {
  COLUMNS,
  type InboxClaim,
  type InboxRecord,
  type InboxRow,
  oldestFirst,
  toRow,
  UNFINISHED,
} from '../inbox-repo.js';
import { type PgQueryable, pgRows } from './pg-db.js';

const OF_PLATFORMS = '($1::text[] IS NULL OR platform = ANY($1::text[]))';

/** Takes the rows `claim` names (see InboxClaim), oldest first. */
export async function claimPgInbox(db: PgQueryable, claim: InboxClaim): Promise<InboxRow[]> {
  const platforms = claim.platforms === undefined ? null : [...claim.platforms];
  if (claim.owner === undefined) {
    const rows = await pgRows<InboxRecord>(
      db,
      `SELECT ${COLUMNS} FROM inbox WHERE ${UNFINISHED} AND ${OF_PLATFORMS} ORDER BY accepted_at, id`,
      [platforms],
    );
    return rows.map(toRow);
  }
  const whose =
    claim.from === 'orphans'
      ? `owner IS NULL OR (owner <> $2 AND owner NOT IN (
           SELECT instance_id FROM hermes_cluster_members
           WHERE heartbeat_at > now() - make_interval(secs => $3::double precision / 1000)))`
      : 'owner IS NULL OR (owner = $2 AND accepted_at < $3)';
  const bound =
    claim.from === 'orphans' ? (claim.staleMs ?? 10_000) : (claim.acceptedBefore ?? Number.MAX_SAFE_INTEGER);
  const rows = await pgRows<InboxRecord>(
    db,
    `UPDATE inbox SET owner = $2 WHERE ${UNFINISHED} AND ${OF_PLATFORMS} AND (${whose}) RETURNING ${COLUMNS}`,
    [platforms, claim.owner, bound],
  );
  return rows.map(toRow).sort(oldestFirst);
}

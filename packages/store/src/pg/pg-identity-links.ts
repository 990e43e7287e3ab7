/** Identity links and `/link` codes on PostgreSQL (identity-links-repo.ts has the contract). */
import type { AsyncMethods } from '../async-store.js';
import type { IdentityLinksRepo } from '../identity-links-repo.js';
import { inPgTransaction, type PgQueryable, pgRow, pgRows } from './pg-db.js';

export function createPgIdentityLinksRepo(db: PgQueryable, now: () => number): AsyncMethods<IdentityLinksRepo> {
  const ownerOf = async (q: PgQueryable, identity: string): Promise<string> =>
    (await pgRow<{ owner: string }>(q, 'SELECT owner FROM identity_links WHERE identity = $1', [identity]))?.owner ??
    identity;
  return {
    ownerOf: (identity) => ownerOf(db, identity),
    async identitiesOf(owner) {
      const rows = await pgRows<{ identity: string }>(
        db,
        'SELECT identity FROM identity_links WHERE owner = $1 ORDER BY linked_at, identity',
        [owner],
      );
      return [owner, ...rows.map((r) => r.identity)];
    },
    link: (to, joining) =>
      inPgTransaction(db, async (client) => {
        // one link at a time: two concurrent links of one group would otherwise leave an owner with an owner
        await client.query('LOCK TABLE identity_links IN SHARE ROW EXCLUSIVE MODE');
        const target = await ownerOf(client, to);
        const previous = await ownerOf(client, joining);
        if (previous === target) return target;
        const at = now();
        await client.query('UPDATE identity_links SET owner = $1, linked_at = $2 WHERE owner = $3', [
          target,
          at,
          previous,
        ]);
        await client.query(
          `INSERT INTO identity_links (identity, owner, linked_at) VALUES ($1, $2, $3)
           ON CONFLICT (identity) DO UPDATE SET owner = excluded.owner, linked_at = excluded.linked_at`,
          [previous, target, at],
        );
        return target;
      }),
    async unlink(identity) {
      const rows = await pgRows<{ identity: string }>(
        db,
        'DELETE FROM identity_links WHERE identity = $1 OR owner = $1 RETURNING identity',
        [identity],
      );
      return rows.map((r) => r.identity).sort();
    },
    async putCode(code, identity, expiresAt) {
      await db.query('DELETE FROM identity_link_codes WHERE expires_at <= $1', [now()]);
      await db.query(
        `INSERT INTO identity_link_codes (code, identity, expires_at) VALUES ($1, $2, $3)
         ON CONFLICT (code) DO UPDATE SET identity = excluded.identity, expires_at = excluded.expires_at`,
        [code, identity, expiresAt],
      );
    },
    async takeCode(code) {
      const row = await pgRow<{ identity: string; expires_at: string | number }>(
        db,
        'DELETE FROM identity_link_codes WHERE code = $1 RETURNING identity, expires_at',
        [code],
      );
      return row !== undefined && Number(row.expires_at) > now() ? row.identity : undefined;
    },
  };
}

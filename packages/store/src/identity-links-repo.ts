/**
 * Identity links (migration 14): one person's identities on several platforms as one user. Each
 * linked identity has a row naming its owner identity; an identity without a row is its own
 * owner. Links are flat (an owner never has an owner of its own): linking an identity that owns
 * others moves its whole group. `/link`'s one-time codes live here too, so a code issued on one
 * gateway instance is redeemed on another.
 */
import type { SqliteDatabase } from './sqlite.js';

/** How long a `/link` code is good for. */
export const LINK_CODE_TTL_MS = 10 * 60 * 1000;

export interface IdentityLinksRepo {
  /** The owner identity of `identity`: the one it is linked to, else itself. */
  ownerOf(identity: string): string;
  /** Every identity owned by `owner`, itself first. */
  identitiesOf(owner: string): string[];
  /**
   * Joins `joining` (with every identity it owns) to the owner of `to`; returns that owner.
   * Linking two identities of one owner changes nothing.
   */
  link(to: string, joining: string): string;
  /**
   * Undoes links: a linked identity becomes its own owner again; an owner lets go of every
   * identity linked to it. Returns the identities whose link was removed (none: not linked). The
   * data stays with the owner key it was kept under.
   */
  unlink(identity: string): string[];
  /** Keeps a `/link` code issued for `identity`, good until `expiresAt` (ms since the epoch). */
  putCode(code: string, identity: string, expiresAt: number): void;
  /** The identity a code was issued for, the code used up; undefined when unknown or expired. */
  takeCode(code: string): string | undefined;
}

export function createIdentityLinksRepo(db: SqliteDatabase, now: () => number): IdentityLinksRepo {
  const ownerOf = db.prepare<[string], string>('SELECT owner FROM identity_links WHERE identity = ?').pluck();
  const owned = db
    .prepare<[string], string>('SELECT identity FROM identity_links WHERE owner = ? ORDER BY linked_at, identity')
    .pluck();
  const move = db.prepare<[string, number, string]>(
    'UPDATE identity_links SET owner = ?, linked_at = ? WHERE owner = ?',
  );
  const upsert = db.prepare<[string, string, number]>(
    `INSERT INTO identity_links (identity, owner, linked_at) VALUES (?, ?, ?)
     ON CONFLICT (identity) DO UPDATE SET owner = excluded.owner, linked_at = excluded.linked_at`,
  );
  const putCode = db.prepare<[string, string, number]>(
    'INSERT OR REPLACE INTO identity_link_codes (code, identity, expires_at) VALUES (?, ?, ?)',
  );
  const takeCode = db.prepare<[string], { identity: string; expires_at: number }>(
    'DELETE FROM identity_link_codes WHERE code = ? RETURNING identity, expires_at',
  );
  const dropExpired = db.prepare<[number]>('DELETE FROM identity_link_codes WHERE expires_at <= ?');
  const unlink = db
    .prepare<[string, string], string>('DELETE FROM identity_links WHERE identity = ? OR owner = ? RETURNING identity')
    .pluck();
  const owner = (identity: string) => ownerOf.get(identity) ?? identity;
  const link = db.transaction((to: string, joining: string): string => {
    const target = owner(to);
    const previous = owner(joining);
    if (previous === target) return target;
    const at = now();
    move.run(target, at, previous);
    upsert.run(previous, target, at);
    return target;
  });
  return {
    ownerOf: owner,
    identitiesOf: (key) => [key, ...owned.all(key)],
    link: (to, joining) => link(to, joining),
    unlink: (identity) => unlink.all(identity, identity).sort(),
    putCode(code, identity, expiresAt) {
      dropExpired.run(now());
      putCode.run(code, identity, expiresAt);
    },
    takeCode(code) {
      const row = takeCode.get(code);
      return row !== undefined && row.expires_at > now() ? row.identity : undefined;
    },
  };
}

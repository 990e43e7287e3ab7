/**
 * A user identity: the platform and the user id there, written `<platform>:<userId>` (the
 * "identity key": `telegram:111`, `slack:U123`, `api:default`, `web:<browser id>`, `cli:local`).
 * Every per-user thing (memory profile, sessions searched, media cache) is keyed by the owner of
 * an identity: itself, or the identity it was linked to (`/link`, `gateway.identity_links`; the store's
 * `identityLinks.ownerOf`).
 */

/** The identity of the local user of `hermes chat` and `hermes -z`. */
export const CLI_IDENTITY = 'cli:local';

/** The identity of the API platform's callers (one `API_SERVER_KEY`, named `default`). */
export const API_IDENTITY = 'api:default';

/** `<platform>:<userId>`, the identity key. */
export function identityKey(platform: string, userId: string): string {
  return `${platform}:${userId}`;
}

/** The platform and user id of an identity key, or null when `key` is not shaped like one. */
export function splitIdentity(key: string): { platform: string; userId: string } | null {
  if (!isIdentityKey(key)) return null;
  const at = key.indexOf(':');
  return { platform: key.slice(0, at), userId: key.slice(at + 1) };
}

/** True for a string shaped like an identity key: a platform name, `:`, and a non-empty id. */
export function isIdentityKey(value: string): boolean {
  return /^[a-z][a-z0-9_-]*:\S+$/.test(value);
}

/**
 * The identity as a file or folder name (memory profile, media cache): letters, digits, `-`, `_`
 * and `.` kept, every other character `_`, and a short hash of the whole key so two keys never
 * share a name.
 */
export function safeIdentityName(key: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  const readable = key
    .replace(/[^A-Za-z0-9_.-]/g, '_')
    .replace(/^\.+/, '_')
    .slice(0, 64);
  return `${readable}-${hash.toString(16).padStart(8, '0')}`;
}

/** Who a turn is for: the owner identity (links resolved) and the tier it runs with. */
export interface TurnUser {
  key: string;
  tier: 'admin' | 'user';
}

/**
 * One-time console login links (`hermes console url`): the CLI makes a random token, prints it in a
 * URL and keeps only its SHA-256 with an expiry in `HERMES_HOME/console/login-links.json` (0600);
 * the gateway's `GET /console/login?token=…` consumes it once. Reading the file gives no usable
 * token, and a link works once, for `LOGIN_LINK_TTL_MS`.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomicSync } from '@hermes/protocol';

export const LOGIN_LINK_TTL_MS = 10 * 60 * 1000;
/** links kept at most: older ones go first */
const MAX_LINKS = 20;

interface StoredLink {
  sha256: string;
  expiresAt: number;
}

/** Where the links of a HERMES_HOME are kept. */
export function loginLinksPath(home: string): string {
  return join(home, 'console', 'login-links.json');
}

function hashOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function readLinks(path: string, now: number): StoredLink[] {
  if (!existsSync(path)) return [];
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (l): l is StoredLink =>
        typeof l === 'object' &&
        l !== null &&
        typeof (l as StoredLink).sha256 === 'string' &&
        typeof (l as StoredLink).expiresAt === 'number' &&
        (l as StoredLink).expiresAt > now,
    );
  } catch {
    return []; // a broken file holds no valid link
  }
}

function writeLinks(path: string, links: readonly StoredLink[]): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileAtomicSync(path, `${JSON.stringify(links)}\n`, { mode: 0o600 });
}

/** A new one-time token (to print in the URL); only its hash is stored. */
export function createLoginLink(path: string, now = Date.now()): string {
  const token = randomBytes(32).toString('base64url');
  const links = [...readLinks(path, now), { sha256: hashOf(token), expiresAt: now + LOGIN_LINK_TTL_MS }];
  writeLinks(path, links.slice(-MAX_LINKS));
  return token;
}

/** True (and the link gone) when `token` is a live link of `path`; false otherwise. */
export function consumeLoginLink(path: string, token: unknown, now = Date.now()): boolean {
  if (typeof token !== 'string' || token === '' || token.length > 200) return false;
  const links = readLinks(path, now);
  const given = Buffer.from(hashOf(token), 'hex');
  const match = links.findIndex((l) => {
    const stored = Buffer.from(l.sha256, 'hex');
    return stored.length === given.length && timingSafeEqual(stored, given);
  });
  if (match === -1) return false;
  writeLinks(
    path,
    links.filter((_, i) => i !== match),
  );
  return true;
}

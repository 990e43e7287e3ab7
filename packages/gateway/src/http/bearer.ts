/** The API key check shared by the request guard, the API platform and `/metrics`. */
import { timingSafeEqual } from 'node:crypto';

/** True when the request carries the configured bearer key (constant-time compare). */
export function bearerMatches(header: string | undefined, key: string): boolean {
  const m = /^Bearer\s+(.+)$/i.exec(header ?? '');
  if (!m?.[1]) return false;
  const a = Buffer.from(m[1]);
  const b = Buffer.from(key);
  return a.length === b.length && timingSafeEqual(a, b);
}

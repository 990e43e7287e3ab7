/** Constant-time comparison of a webhook secret. */
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/** True when `received` equals `expected`; hashing first keeps the comparison length-independent. */
export function secretMatches(expected: string, received: string | undefined): boolean {
  if (received === undefined) return false;
  return timingSafeEqual(digest(expected), digest(received));
}

/** Constant-time comparison of a webhook secret. */
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/** True when `received` equals `expected`; hashing first keeps the comparison length-independent. */
export function secretMatches(expected: string, received: string | undefined): boolean {
  return secretMatcher(expected)(received);
}

/** A matcher for one expected secret (its digest computed once, not per request). */
export function secretMatcher(expected: string): (received: string | undefined) => boolean {
  const want = digest(expected);
  return (received) => received !== undefined && timingSafeEqual(want, digest(received));
}

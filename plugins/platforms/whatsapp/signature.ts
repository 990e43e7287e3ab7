/**
 * The webhook's two checks: Meta signs every event POST with `X-Hub-Signature-256: sha256=<hex>`,
 * the HMAC-SHA256 of the raw body keyed with the app secret; the GET verification carries the
 * verify token the operator chose. Both are compared in constant time.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-hub-signature-256';

export type SignatureCheck =
  | { ok: true }
  | { ok: false; reason: 'missing signature' | 'malformed signature' | 'bad signature' };

/** The header's value as Meta sends it: `sha256=` and the hex HMAC of `rawBody`. */
export function signBody(rawBody: string | Buffer, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}

/** Checks `header` against the HMAC of the exact raw body (UTF-8 bytes, as received). */
export function checkSignature(rawBody: string, header: string | undefined, appSecret: string): SignatureCheck {
  if (header === undefined || header.trim() === '') return { ok: false, reason: 'missing signature' };
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header.trim());
  if (match?.[1] === undefined) return { ok: false, reason: 'malformed signature' };
  const expected = createHmac('sha256', appSecret).update(rawBody, 'utf8').digest();
  const received = Buffer.from(match[1], 'hex');
  return timingSafeEqual(expected, received) ? { ok: true } : { ok: false, reason: 'bad signature' };
}

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/** A matcher for the verify token: hashing first keeps the comparison length-independent. */
export function verifyTokenMatcher(expected: string): (received: string | undefined) => boolean {
  const want = digest(expected);
  return (received) => received !== undefined && timingSafeEqual(want, digest(received));
}

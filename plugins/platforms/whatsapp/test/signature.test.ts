// X-Hub-Signature-256 and the verify token: the exact raw body signed with the app secret passes;
// a missing, malformed or wrong signature, a tampered body or another secret is refused.
import { describe, expect, it } from 'vitest';
import { checkSignature, signBody, verifyTokenMatcher } from '../signature.js';

const SECRET = 'app-secret-5d41402a';
const BODY = '{"object":"whatsapp_business_account","entry":[{"changes":[]}],"note":"caf\u00e9 ✓"}';

describe('webhook signature', () => {
  it('passes the HMAC-SHA256 of the exact raw body (UTF-8) with the app secret, in either hex case', () => {
    const header = signBody(BODY, SECRET);
    expect(header).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(checkSignature(BODY, header, SECRET)).toEqual({ ok: true });
    expect(checkSignature(BODY, header.toUpperCase().replace('SHA256=', 'sha256='), SECRET)).toEqual({ ok: true });
  });

  it('refuses a missing, malformed or wrong signature, a tampered body and another secret, saying which', () => {
    const header = signBody(BODY, SECRET);
    expect(checkSignature(BODY, undefined, SECRET)).toEqual({ ok: false, reason: 'missing signature' });
    expect(checkSignature(BODY, '  ', SECRET)).toEqual({ ok: false, reason: 'missing signature' });
    expect(checkSignature(BODY, 'sha1=abc', SECRET)).toEqual({ ok: false, reason: 'malformed signature' });
    expect(checkSignature(BODY, header.slice(0, -2), SECRET)).toEqual({ ok: false, reason: 'malformed signature' });
    expect(checkSignature(`${BODY} `, header, SECRET)).toEqual({ ok: false, reason: 'bad signature' });
    expect(checkSignature(BODY.replace('✓', 'x'), header, SECRET)).toEqual({ ok: false, reason: 'bad signature' });
    expect(checkSignature(BODY, signBody(BODY, 'another-secret'), SECRET)).toEqual({
      ok: false,
      reason: 'bad signature',
    });
  });

  it('the verify token matches only itself (any length)', () => {
    const matches = verifyTokenMatcher('verify-me');
    expect(matches('verify-me')).toBe(true);
    expect(matches('verify-m')).toBe(false);
    expect(matches('verify-me-too')).toBe(false);
    expect(matches('')).toBe(false);
    expect(matches(undefined)).toBe(false);
  });
});

// The webhook's secret check, shared by the route's header check and its handler.
import { describe, expect, it } from 'vitest';
import { SECRET_HEADER, webhookSecretCheck } from '../webhook.js';

const SECRET = 'webhook-secret-123';

describe('webhookSecretCheck', () => {
  it('passes the headers the header check passed, without their secret being checked again', () => {
    const check = webhookSecretCheck(SECRET);
    const headers: Record<string, string> = { [SECRET_HEADER]: SECRET };
    expect(check.verify({ headers })).toBe(true);
    // the same headers object: remembered (a hash of the secret saved per request)
    headers[SECRET_HEADER] = 'changed after the check';
    expect(check.passes({ headers })).toBe(true);
    // another object with the same wrong value is checked, and refused
    expect(check.passes({ headers: { ...headers } })).toBe(false);
  });

  it('remembers no refused headers, and checks headers the header check never saw', () => {
    const check = webhookSecretCheck(SECRET);
    const wrong = { [SECRET_HEADER]: 'nope' };
    expect(check.verify({ headers: wrong })).toBe(false);
    expect(check.passes({ headers: wrong })).toBe(false);
    expect(check.passes({ headers: {} })).toBe(false);
    expect(check.passes({ headers: { [SECRET_HEADER]: SECRET } })).toBe(true);
    expect(check.passes({ headers: { [SECRET_HEADER]: [SECRET, 'other'] } })).toBe(true);
  });

  it('finds the header under another case when the names are not lowercased', () => {
    const check = webhookSecretCheck(SECRET);
    expect(check.verify({ headers: { 'X-Telegram-Bot-Api-Secret-Token': SECRET } })).toBe(true);
    expect(check.verify({ headers: { 'X-Telegram-Bot-Api-Secret-Token': 'nope' } })).toBe(false);
  });
});

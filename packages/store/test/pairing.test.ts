import {
  newPairingCode,
  PAIRING_ALPHABET,
  PAIRING_CODE_TTL_MS,
  PAIRING_FAILURE_WINDOW_MS,
  type PairingRequestResult,
} from '@hermes/store';
import { describe, expect, it } from 'vitest';
import { fakeClock } from './temp-dir.js';
import { useStores } from './use-store.js';

const { open, freshPath } = useStores();

function codeOf(result: PairingRequestResult): string {
  if ('refused' in result) throw new Error(`refused: ${result.refused}`);
  return result.code;
}

/** A deterministic random source: 0, 1, 2, … (so codes are distinct and predictable). */
function counter(): (max: number) => number {
  let n = 0;
  return (max) => n++ % max;
}

describe('pairing codes', () => {
  it('are 8 characters of the unambiguous alphabet, drawn from crypto by default', () => {
    expect(PAIRING_ALPHABET).not.toMatch(/[01OIL]/);
    const codes = new Set(Array.from({ length: 200 }, () => newPairingCode()));
    expect(codes.size).toBe(200);
    for (const code of codes) expect(code).toMatch(/^[ABCDEFGHJKMNPQRSTUVWXYZ2-9]{8}$/);
    expect(newPairingCode(() => 0)).toBe('AAAAAAAA');
    expect(() => newPairingCode(() => 99)).toThrow(RangeError);
  });
});

describe('store.pairing', () => {
  it('hands out a code valid one hour, the same one when asked again, and approves it once', () => {
    const clock = fakeClock();
    const store = open({ now: clock.now });
    const first = store.pairing.request('telegram', 'u1', 'alice');
    expect(first).toEqual({
      code: expect.stringMatching(/^[A-Z2-9]{8}$/),
      expiresAt: clock.t + 3_600_000,
      isNew: true,
    });
    clock.t += 60_000;
    expect(store.pairing.request('telegram', 'u1', 'alice')).toEqual({ ...first, isNew: false });
    expect(store.pairing.list().pending).toHaveLength(1);

    expect(store.pairing.isApproved('telegram', 'u1')).toBe(false);
    expect(store.pairing.approve('telegram', codeOf(first))).toEqual({ ok: true, userId: 'u1', userName: 'alice' });
    expect(store.pairing.isApproved('telegram', 'u1')).toBe(true);
    expect(store.pairing.isApproved('discord', 'u1')).toBe(false);
    // Consumed: the same code again is unknown.
    expect(store.pairing.approve('telegram', codeOf(first))).toEqual({ ok: false, reason: 'unknown' });
    expect(store.pairing.list()).toEqual({
      pending: [],
      approved: [{ platform: 'telegram', userId: 'u1', userName: 'alice', approvedAt: clock.t }],
    });
  });

  it('denies a pending code: gone from the list, not approvable, no new code for its hour', () => {
    const clock = fakeClock();
    const store = open({ now: clock.now });
    const code = codeOf(store.pairing.request('telegram', 'u1', 'alice'));
    expect(store.pairing.deny('telegram', code.toLowerCase())).toBe(true);
    expect(store.pairing.list().pending).toEqual([]);
    expect(store.pairing.deny('telegram', code)).toBe(false);
    expect(store.pairing.approve('telegram', code)).toMatchObject({ ok: false });
    expect(store.pairing.isApproved('telegram', 'u1')).toBe(false);
    clock.t += 60_000;
    expect(store.pairing.request('telegram', 'u1', 'alice')).toMatchObject({ refused: 'recently_answered' });
    clock.t += 3_600_000;
    expect(store.pairing.request('telegram', 'u1', 'alice')).toMatchObject({ isNew: true });
  });

  it('approves case-insensitively, ignoring surrounding spaces', () => {
    const store = open({ randomInt: counter() });
    const code = codeOf(store.pairing.request('slack', 'U9'));
    expect(code).toBe('ABCDEFGH');
    expect(store.pairing.approve('slack', '  abcdEFgh\n')).toEqual({ ok: true, userId: 'U9', userName: null });
  });

  it('expires a code exactly one hour after it was handed out', () => {
    const clock = fakeClock();
    const store = open({ now: clock.now });
    const a = codeOf(store.pairing.request('telegram', 'a'));
    const b = codeOf(store.pairing.request('telegram', 'b'));
    clock.t += PAIRING_CODE_TTL_MS - 1;
    expect(store.pairing.approve('telegram', a).ok).toBe(true);
    clock.t += 1;
    expect(store.pairing.approve('telegram', b)).toEqual({ ok: false, reason: 'expired' });
    // The expired request is gone; asking again gets a fresh code.
    const again = store.pairing.request('telegram', 'b');
    expect(again).toMatchObject({ isNew: true, expiresAt: clock.t + PAIRING_CODE_TTL_MS });
    expect(codeOf(again)).not.toBe(b);
  });

  it('allows at most 3 unexpired codes per platform: a new user expires the oldest code, never a lock-out', () => {
    const clock = fakeClock();
    const store = open({ now: clock.now });
    const codes = ['u1', 'u2', 'u3'].map((user) => {
      const code = codeOf(store.pairing.request('telegram', user));
      clock.t += 1;
      return code;
    });
    expect(store.pairing.request('telegram', 'u4')).toMatchObject({ isNew: true });
    expect(
      store.pairing
        .list()
        .pending.map((p) => p.userId)
        .sort(),
    ).toEqual(['u2', 'u3', 'u4']);
    // the expired code no longer approves; its user gets no second code (no second reply) within the hour
    expect(store.pairing.approve('telegram', codes[0] ?? '')).toEqual({ ok: false, reason: 'expired' });
    expect(store.pairing.request('telegram', 'u2')).toMatchObject({ code: codes[1], isNew: false });
    expect(store.pairing.request('discord', 'u5')).toMatchObject({ isNew: true });
    expect(store.pairing.request('telegram', 'u5')).toMatchObject({ isNew: true }); // expires u2's
    const u2 = store.pairing.request('telegram', 'u2');
    expect(u2).toEqual({ refused: 'recently_answered', retryAt: expect.any(Number) });
    clock.t = 'retryAt' in u2 ? u2.retryAt : 0;
    expect(store.pairing.request('telegram', 'u2')).toMatchObject({ isNew: true });
  });

  it('rate-limits wrong codes: 5 per platform per 10 minutes, then refuses even a right one until the window passes', () => {
    const clock = fakeClock();
    const store = open({ now: clock.now });
    const code = codeOf(store.pairing.request('telegram', 'u1'));
    const start = clock.t;
    for (let i = 0; i < 5; i++) {
      expect(store.pairing.approve('telegram', 'WRONGCDE')).toEqual({ ok: false, reason: 'unknown' });
      clock.t += 60_000;
    }
    const limited = { ok: false, reason: 'rate_limited', retryAt: start + PAIRING_FAILURE_WINDOW_MS };
    expect(store.pairing.approve('telegram', code)).toEqual(limited);
    // Refused attempts do not extend the lock; other platforms are unaffected.
    expect(store.pairing.approve('telegram', 'WRONGCDE')).toEqual(limited);
    expect(store.pairing.approve('discord', 'WRONGCDE')).toEqual({ ok: false, reason: 'unknown' });
    clock.t = start + PAIRING_FAILURE_WINDOW_MS - 1;
    expect(store.pairing.approve('telegram', code)).toMatchObject({ reason: 'rate_limited' });
    clock.t = start + PAIRING_FAILURE_WINDOW_MS;
    expect(store.pairing.approve('telegram', code)).toMatchObject({ ok: true, userId: 'u1' });
  });

  it('keeps the rate limit across processes (each CLI run is a new connection)', () => {
    const clock = fakeClock();
    const path = freshPath();
    for (let i = 0; i < 5; i++) {
      const cli = open({ now: clock.now }, path);
      cli.pairing.approve('telegram', 'NOPE1234');
      cli.close();
    }
    expect(open({ now: clock.now }, path).pairing.approve('telegram', 'NOPE1234')).toMatchObject({
      reason: 'rate_limited',
    });
  });

  it('revokes an approval, and an approve in one connection is seen by another at once', () => {
    const path = freshPath();
    const gateway = open({}, path);
    const cli = open({}, path);
    const code = codeOf(gateway.pairing.request('discord', '555', 'bob'));
    expect(gateway.pairing.isApproved('discord', '555')).toBe(false);
    expect(cli.pairing.approve('discord', code).ok).toBe(true);
    expect(gateway.pairing.isApproved('discord', '555')).toBe(true);
    expect(cli.pairing.revoke('discord', '555')).toBe(true);
    expect(cli.pairing.revoke('discord', '555')).toBe(false);
    expect(gateway.pairing.isApproved('discord', '555')).toBe(false);
  });

  it('names the user approved first (ties: by platform, then user id), without purging anything', () => {
    const clock = fakeClock();
    const store = open({ now: clock.now });
    expect(store.pairing.firstApproved()).toBeUndefined();
    const approve = (platform: string, userId: string) => {
      const request = store.pairing.request(platform, userId, userId);
      expect(store.pairing.approve(platform, codeOf(request))).toMatchObject({ ok: true, userId });
    };
    clock.t += 1_000;
    approve('telegram', 'late');
    clock.t -= 500;
    approve('telegram', 'b');
    approve('slack', 'z');
    approve('telegram', 'a');
    expect(store.pairing.firstApproved()).toEqual({
      platform: 'slack',
      userId: 'z',
      userName: 'z',
      approvedAt: clock.t,
    });
    store.pairing.revoke('slack', 'z');
    expect(store.pairing.firstApproved()).toMatchObject({ platform: 'telegram', userId: 'a' });
    // an expired code stays until list() purges it: firstApproved is a read
    store.pairing.request('discord', 'd1');
    clock.t += PAIRING_CODE_TTL_MS * 2;
    store.pairing.firstApproved();
    expect(store.db.prepare('SELECT COUNT(*) AS n FROM pairing_requests').get()).toEqual({ n: 1 });
  });

  it('updates the user name when the user asks again', () => {
    const store = open();
    store.pairing.request('telegram', 'u1');
    store.pairing.request('telegram', 'u1', 'carol');
    expect(store.pairing.list().pending).toEqual([expect.objectContaining({ userId: 'u1', userName: 'carol' })]);
  });

  it('draws another code when the first collides with a pending one on the platform', () => {
    let calls = 0;
    // First two codes are both AAAAAAAA, then BBBBBBBB.
    const store = open({ randomInt: () => (calls++ < 16 ? 0 : 1) });
    expect(codeOf(store.pairing.request('telegram', 'u1'))).toBe('AAAAAAAA');
    expect(codeOf(store.pairing.request('telegram', 'u2'))).toBe('BBBBBBBB');
  });
});

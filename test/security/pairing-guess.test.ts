// Pairing codes cannot be guessed within the rate limit: the real pairing repository (SQLite) and
// the real `hermes pairing approve` CLI under a brute-force run. Only PAIRING_MAX_FAILURES wrong
// codes are ever checked per window; after that every guess, the right code included, is refused
// until the window passes. The figures printed bound an attacker's chance.
import { join } from 'node:path';
import {
  newPairingCode,
  openStore,
  PAIRING_ALPHABET,
  PAIRING_CODE_LENGTH,
  PAIRING_FAILURE_WINDOW_MS,
  PAIRING_MAX_FAILURES,
  PAIRING_MAX_PENDING_PER_PLATFORM,
} from '@hermes/store';
import { describe, expect, it } from 'vitest';
import { Rng } from '../bad-input/lib/prng.js';
import { runHermes, tempHome } from '../helpers/run-hermes.js';

const GUESSES = 20_000;

function guess(rng: Rng): string {
  return rng.string(PAIRING_CODE_LENGTH, PAIRING_ALPHABET);
}

describe('pairing codes cannot be guessed within the rate limit', () => {
  it('the pairing repository: 20 000 guesses check at most the allowed failures per window, approve nobody', () => {
    let now = 1_800_000_000_000;
    const store = openStore(join(tempHome(), 'state.db'), { now: () => now });
    try {
      const codes: string[] = [];
      for (let i = 0; i < PAIRING_MAX_PENDING_PER_PLATFORM; i++) {
        const r = store.pairing.request('telegram', `victim-${i}`);
        if (!('code' in r)) throw new Error('refused');
        codes.push(r.code);
      }
      // the pending cap: a fourth stranger gets a code and the oldest one expires (never a lock-out)
      expect(store.pairing.request('telegram', 'one-more')).toMatchObject({ isNew: true });
      expect(store.pairing.list().pending.map((p) => p.userId)).not.toContain('victim-0');
      const rng = new Rng(0x5eed);
      const outcomes = { unknown: 0, expired: 0, rate_limited: 0, approved: 0 };
      for (let i = 0; i < GUESSES; i++) {
        const g = guess(rng);
        if (codes.includes(g)) continue; // a lucky draw is not a guess we can count on
        const r = store.pairing.approve('telegram', g);
        if (r.ok) outcomes.approved += 1;
        else outcomes[r.reason] += 1;
        now += 10; // 20 000 guesses in 200 s: well inside one window
      }
      expect(outcomes.approved).toBe(0);
      expect(outcomes.unknown).toBe(PAIRING_MAX_FAILURES);
      expect(outcomes.rate_limited).toBe(GUESSES - PAIRING_MAX_FAILURES);
      // while limited, even the right code is refused (a guesser cannot tell a hit from a miss)
      expect(store.pairing.approve('telegram', codes[0] ?? '')).toMatchObject({ ok: false, reason: 'rate_limited' });
      // the limit is per platform: another platform's owner is not locked out
      const other = store.pairing.request('discord', 'someone');
      expect('code' in other && store.pairing.approve('discord', other.code).ok).toBe(true);
      // after the window, the right code works again
      now += PAIRING_FAILURE_WINDOW_MS + 1;
      expect(store.pairing.approve('telegram', (codes[1] ?? '').toLowerCase())).toMatchObject({
        ok: true,
        userId: 'victim-1',
      });
      const space = PAIRING_ALPHABET.length ** PAIRING_CODE_LENGTH;
      const perWindow = (PAIRING_MAX_FAILURES * PAIRING_MAX_PENDING_PER_PLATFORM) / space;
      const windowsPerYear = (365 * 24 * 3_600_000) / PAIRING_FAILURE_WINDOW_MS;
      console.log(
        `pairing: ${GUESSES} guesses, ${outcomes.unknown} checked, ${outcomes.rate_limited} refused by the rate limit, 0 approved; ` +
          `code space ${space.toExponential(2)}, success chance per window ${perWindow.toExponential(2)}, per year of nonstop guessing ${(perWindow * windowsPerYear).toExponential(2)}`,
      );
    } finally {
      store.close();
    }
  });

  it('codes are drawn uniformly from the whole alphabet: 20 000 codes, no repeat, every character used at every position', () => {
    const seen = new Set<string>();
    const perPosition = Array.from({ length: PAIRING_CODE_LENGTH }, () => new Set<string>());
    for (let i = 0; i < 20_000; i++) {
      const code = newPairingCode();
      expect(code).toMatch(new RegExp(`^[${PAIRING_ALPHABET}]{${PAIRING_CODE_LENGTH}}$`));
      seen.add(code);
      for (const [p, ch] of [...code].entries()) perPosition[p]?.add(ch);
    }
    expect(seen.size).toBe(20_000);
    for (const chars of perPosition) expect(chars.size).toBe(PAIRING_ALPHABET.length);
  });

  it('the CLI: `hermes pairing approve` refuses guesses past the limit, and then the right code too', async () => {
    const home = tempHome();
    const store = openStore(join(home, 'state.db'));
    const r = store.pairing.request('telegram', '4242', 'victim');
    store.close();
    if (!('code' in r)) throw new Error('refused');
    const env = { HERMES_HOME: home };
    const rng = new Rng(7);
    const results: { code: number | null; stderr: string }[] = [];
    for (let i = 0; i < PAIRING_MAX_FAILURES + 2; i++) {
      let g = guess(rng);
      while (g === r.code) g = guess(rng);
      results.push(await runHermes(['pairing', 'approve', 'telegram', g], { env }));
    }
    const right = await runHermes(['pairing', 'approve', 'telegram', r.code], { env });
    for (const x of results) expect(x.code).toBe(1);
    const limited = results.slice(PAIRING_MAX_FAILURES);
    for (const x of limited) expect(x.stderr).toMatch(/too many|rate|try again/i);
    expect(results.slice(0, PAIRING_MAX_FAILURES).every((x) => !/too many|rate|try again/i.test(x.stderr))).toBe(true);
    expect(right.code).toBe(1);
    expect(right.stderr).toMatch(/too many|rate|try again/i);
    const check = openStore(join(home, 'state.db'));
    try {
      expect(check.pairing.isApproved('telegram', '4242')).toBe(false);
    } finally {
      check.close();
    }
    console.log(
      `pairing CLI: ${results.length} wrong codes (${limited.length} refused by the limit), the right one refused while limited`,
    );
  }, 90_000);
});

import { join } from 'node:path';
import { openStore, type PairingRequestResult, type StoreOptions } from '@hermes/store';
import { describe, expect, it } from 'vitest';
import { runHermes, tempHome } from '../helpers/run-hermes.js';

const HOUR_MS = 3_600_000;

/** Asks for a pairing code the way the gateway does, straight through the store on `home`'s state.db. */
function requestCode(home: string, platform: string, userId: string, userName?: string, options: StoreOptions = {}) {
  const store = openStore(join(home, 'state.db'), options);
  try {
    const result: PairingRequestResult = store.pairing.request(platform, userId, userName);
    if ('refused' in result) throw new Error(`refused: ${result.refused}`);
    return result;
  } finally {
    store.close();
  }
}

function isApproved(home: string, platform: string, userId: string): boolean {
  const store = openStore(join(home, 'state.db'));
  try {
    return store.pairing.isApproved(platform, userId);
  } finally {
    store.close();
  }
}

interface ListJson {
  pending: { platform: string; code: string; userId: string; userName: string | null; expiresAt: string }[];
  approved: { platform: string; userId: string; userName: string | null; approvedAt: string }[];
}

async function listJson(env: Record<string, string>, extra: string[] = []): Promise<ListJson> {
  const r = await runHermes([...extra, 'pairing', 'list', '--json'], { env });
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as ListJson;
}

describe('hermes pairing', () => {
  it('lists a pending code, approves it (any case), lists the user, and revokes them', async () => {
    const home = tempHome();
    const env = { HERMES_HOME: home };
    const { code, expiresAt } = requestCode(home, 'telegram', '1001', 'alice');

    expect(await listJson(env)).toEqual({
      pending: [
        { platform: 'telegram', code, userId: '1001', userName: 'alice', expiresAt: new Date(expiresAt).toISOString() },
      ],
      approved: [],
    });
    const text = await runHermes(['pairing', 'list'], { env });
    expect(text.stdout).toMatch(new RegExp(`telegram {2}${code} {2}alice \\(1001\\) {2}expires in (59|60) min`));
    expect(text.stdout).toContain('No approved users.');

    const approve = await runHermes(['pairing', 'approve', 'telegram', code.toLowerCase()], { env });
    expect(approve).toMatchObject({ code: 0, stdout: 'Approved alice on telegram\n' });
    expect(isApproved(home, 'telegram', '1001')).toBe(true);
    const listed = await listJson(env);
    expect(listed.pending).toEqual([]);
    expect(listed.approved).toEqual([
      { platform: 'telegram', userId: '1001', userName: 'alice', approvedAt: expect.any(String) },
    ]);
    expect(Math.abs(Date.parse(listed.approved[0]?.approvedAt ?? '') - Date.now())).toBeLessThan(60_000);

    const revoke = await runHermes(['pairing', 'revoke', 'telegram', '1001'], { env });
    expect(revoke).toMatchObject({ code: 0, stdout: 'Revoked 1001 on telegram\n' });
    expect(isApproved(home, 'telegram', '1001')).toBe(false);
    const again = await runHermes(['pairing', 'revoke', 'telegram', '1001'], { env });
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toBe('hermes: 1001 is not an approved user on telegram');
  });

  it('approve prints the user id when the user has no name', async () => {
    const home = tempHome();
    const { code } = requestCode(home, 'discord', '424242');
    const r = await runHermes(['pairing', 'approve', 'discord', code], { env: { HERMES_HOME: home } });
    expect(r).toMatchObject({ code: 0, stdout: 'Approved 424242 on discord\n' });
  });

  it('refuses wrong and expired codes with exit 1 and a one-line reason', async () => {
    const home = tempHome();
    const env = { HERMES_HOME: home };
    // Handed out two hours ago: expired an hour ago.
    const expired = requestCode(home, 'telegram', '7', 'old', { now: () => Date.now() - 2 * HOUR_MS });

    const wrong = await runHermes(['pairing', 'approve', 'telegram', 'ZZZZ2345'], { env });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toBe('hermes: no pending pairing code ZZZZ2345 on telegram (see: hermes pairing list)\n');

    const late = await runHermes(['pairing', 'approve', 'telegram', expired.code], { env });
    expect(late.code).toBe(1);
    expect(late.stderr.trim().split('\n')).toEqual([
      `hermes: pairing code ${expired.code} on telegram has expired; the user gets a new one by messaging the bot again`,
    ]);
    expect(isApproved(home, 'telegram', '7')).toBe(false);
    expect(await listJson(env)).toEqual({ pending: [], approved: [] });

    const usage = await runHermes(['pairing', 'approve', 'telegram'], { env });
    expect(usage.code).toBe(2);
  });

  it('rate-limits wrong codes: after 5 in 10 minutes even the right code is refused', async () => {
    const home = tempHome();
    const env = { HERMES_HOME: home };
    const { code } = requestCode(home, 'slack', 'U1', 'dana');
    for (let i = 0; i < 5; i++) {
      expect((await runHermes(['pairing', 'approve', 'slack', `WRONG${i}AA`], { env })).code).toBe(1);
    }
    const limited = await runHermes(['pairing', 'approve', 'slack', code], { env });
    expect(limited.code).toBe(1);
    expect(limited.stderr).toMatch(/^hermes: too many wrong pairing codes on slack; try again in (9|10) min\n$/);
    expect(isApproved(home, 'slack', 'U1')).toBe(false);
  });

  it('--profile works on the profile’s own state.db', async () => {
    const home = tempHome();
    const env = { HERMES_HOME: home };
    const { code } = requestCode(join(home, 'profiles', 'work'), 'telegram', '5', 'erin');
    expect((await listJson(env)).pending).toEqual([]);
    expect((await listJson(env, ['--profile', 'work'])).pending).toHaveLength(1);
    const r = await runHermes(['pairing', 'approve', 'telegram', code, '--profile', 'work'], { env });
    expect(r).toMatchObject({ code: 0, stdout: 'Approved erin on telegram\n' });
    expect(isApproved(join(home, 'profiles', 'work'), 'telegram', '5')).toBe(true);
  });
});

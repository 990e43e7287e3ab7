// `hermes cron add|list|pause|resume|run|remove` through the built CLI, with --json and the errors
// that name what was wrong.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runHermes, tempHome } from '../helpers/run-hermes.js';

describe('hermes cron', () => {
  it('adds, lists, pauses, resumes, marks to run and removes a job', async () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), 'cron:\n  timezone: America/New_York\n');
    const cli = (...args: string[]) => runHermes(['cron', ...args], { env: { HERMES_HOME: home } });
    const added = await cli(
      'add',
      '0 8 * * mon-fri',
      'post the build status',
      '--name',
      'builds',
      '--deliver',
      'slack:C123',
      '--toolsets',
      'web, terminal',
      '--json',
    );
    expect(added.stderr).toBe('');
    const job = JSON.parse(added.stdout) as { id: string; next_run_at: string };
    expect(job).toMatchObject({
      name: 'builds',
      schedule: '0 8 * * mon-fri',
      kind: 'cron',
      deliver: 'slack:C123',
      toolsets: ['web', 'terminal'],
      timezone: 'America/New_York',
      owner: 'cli',
      state: 'active',
    });
    // 08:00 in New York is 12:00 or 13:00 UTC
    expect(job.next_run_at).toMatch(/T1[23]:00:00\.000Z$/);

    const table = await cli('list');
    expect(table.stdout).toContain(`${job.id}  builds  0 8 * * mon-fri (America/New_York)  active`);
    expect(JSON.parse((await cli('pause', job.id, '--json')).stdout)).toMatchObject({ state: 'paused' });
    const again = await cli('pause', job.id);
    expect([again.code, again.stderr.trim()]).toEqual([1, `hermes: job ${job.id} is paused, not active`]);
    expect((await cli('resume', job.id)).stdout).toMatch(new RegExp(`^resumed job ${job.id}: next run `));
    expect((await cli('run', job.id)).stdout).toContain('will run now in the running gateway');
    expect(JSON.parse((await cli('list', '--json')).stdout)).toMatchObject([{ id: job.id, run_requested: true }]);
    expect(JSON.parse((await cli('remove', job.id, '--json')).stdout)).toEqual({ removed: job.id });
    expect((await cli('list')).stdout).toContain('no cron jobs');
  });

  it('refuses bad input naming what was wrong', async () => {
    const home = tempHome();
    const cli = (...args: string[]) => runHermes(['cron', ...args], { env: { HERMES_HOME: home } });
    const bad = await cli('add', 'sometimes', 'x');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('cannot read the schedule "sometimes"; accepted: a cron expression');
    const zone = await cli('add', 'every 1h', 'x', '--tz', 'Mars/Olympus');
    expect([zone.code, zone.stderr.trim()]).toEqual([
      2,
      'hermes: unknown time zone "Mars/Olympus": use an IANA name such as "Europe/Berlin" or "UTC"',
    ]);
    const origin = await cli('add', 'every 1h', 'x', '--deliver', 'origin');
    expect(origin.code).toBe(2);
    expect(origin.stderr).toContain('--deliver origin is the chat a job was created from');
    const target = await cli('add', 'every 1h', 'x', '--deliver', 'telegram:a b');
    expect(target.stderr).toContain('deliver "telegram:a b": expected none, home, a platform');
    const past = await cli('add', '2001-01-01T00:00:00Z', 'x');
    expect(past.stderr).toContain('is in the past');
    const missing = await cli('remove', 'deadbeef');
    expect([missing.code, missing.stderr.trim()]).toEqual([
      1,
      'hermes: no cron job "deadbeef" (hermes cron list shows them)',
    ]);
  });
});

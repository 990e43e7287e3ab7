// `hermes gateway start|restart|stop --all` over two profiles (the root home is `default`, and
// HERMES_HOME/profiles/work), through the CLI as a user runs it (issue 29, item 12): each profile's
// gateway started in the background, restarted (a new pid), stopped; `status --all` agrees.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runHermes, tempHome } from '../helpers/run-hermes.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';

const openai = useFakeOpenAI();
let root = '';

const env = () => ({
  HERMES_HOME: root,
  HERMES_GATEWAY_PORT: '0',
  HERMES_LOCK_DIR: join(root, 'locks'),
  OPENAI_BASE_URL: openai.server.url,
  HERMES_INFERENCE_MODEL: 'test-model',
});

afterEach(async () => {
  // never leave a gateway behind, whatever the test did
  if (root !== '') await runHermes(['gateway', 'stop', '--all'], { env: env(), timeoutMs: 60_000 });
});

interface Status {
  profile: string;
  running: boolean;
  pid: number | null;
  health: string | null;
}

async function statuses(): Promise<Status[]> {
  const r = await runHermes(['gateway', 'status', '--all', '--json'], { env: env() });
  return JSON.parse(r.stdout) as Status[];
}

describe('gateway start / restart / stop --all', () => {
  it('acts on every profile: both start, restart with new pids, and stop', async () => {
    root = tempHome();
    const work = join(root, 'profiles', 'work');
    mkdirSync(work, { recursive: true });
    for (const home of [root, work]) writeFileSync(join(home, 'config.yaml'), 'gateway:\n  drain_timeout_s: 5\n');

    const start = await runHermes(['gateway', 'start', '--all'], { env: env(), timeoutMs: 90_000 });
    expect(start.code, start.stderr).toBe(0);
    const lines = start.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^started: default \\(${root}\\): running, pid \\d+`));
    expect(lines[1]).toMatch(new RegExp(`^started: work \\(${work}\\): running, pid \\d+`));
    const up = await statuses();
    expect(up.map((s) => [s.profile, s.running])).toEqual([
      ['default', true],
      ['work', true],
    ]);
    expect(new Set(up.map((s) => s.pid)).size).toBe(2);

    const restart = await runHermes(['gateway', 'restart', '--all'], { env: env(), timeoutMs: 90_000 });
    expect(restart.code, restart.stderr).toBe(0);
    const again = await statuses();
    expect(again.every((s) => s.running)).toBe(true);
    for (const [i, s] of again.entries()) expect(s.pid).not.toBe(up[i]?.pid);

    const stop = await runHermes(['gateway', 'stop', '--all'], { env: env(), timeoutMs: 60_000 });
    expect(stop.code, stop.stderr).toBe(0);
    const down = await runHermes(['gateway', 'status', '--all'], { env: env() });
    expect(down.code).toBe(3);
    expect(down.stdout.trim().split('\n')).toEqual([`default (${root}): not running`, `work (${work}): not running`]);
  }, 180_000);
});

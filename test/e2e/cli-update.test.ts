// `hermes update` through the built CLI, on a git checkout made here (HERMES_UPDATE_ROOT): its
// origin a bare repository on disk, its package a tiny one whose `npm ci` builds (writes built.txt)
// and whose apps/hermes/bin/hermes.js records what the update asks of the new code. And an npm
// install asking a fake registry on 127.0.0.1 for its newest version.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHermes, tempHome } from '../helpers/run-hermes.js';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=T', ...args], {
    cwd,
    encoding: 'utf8',
  }).trim();

const FAKE_BIN = `import { appendFileSync } from 'node:fs';
appendFileSync(new URL('../../../calls.log', import.meta.url), process.argv.slice(2).join(' ') + '\\n');
if (process.argv.includes('migrate')) console.log('state.db: schema version 99');
if (process.argv.includes('restart')) console.log('restarted: the new version');
`;

/** A bare origin and a clone of it (the installation), one commit each way apart as the test makes them. */
function makeCheckout(): { origin: string; checkout: string; upstream: string; commit(subject: string): void } {
  const base = tempHome();
  const origin = join(base, 'origin.git');
  const seed = join(base, 'seed');
  const checkout = join(base, 'checkout');
  git(base, 'init', '--quiet', '--bare', '--initial-branch=main', origin);
  git(base, 'clone', '--quiet', origin, seed);
  writeFileSync(
    join(seed, 'package.json'),
    `${JSON.stringify(
      {
        name: 'fake-hermes-checkout',
        version: '0.1.0',
        private: true,
        type: 'module',
        scripts: { prepare: `node -e "require('fs').writeFileSync('built.txt', 'built')"` },
      },
      null,
      2,
    )}\n`,
  );
  writeFileSync(join(seed, '.gitignore'), 'built.txt\ncalls.log\nnode_modules/\n');
  execFileSync('npm', ['install', '--package-lock-only', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: seed });
  mkdirSync(join(seed, 'apps', 'hermes', 'bin'), { recursive: true });
  writeFileSync(join(seed, 'apps', 'hermes', 'bin', 'hermes.js'), FAKE_BIN);
  git(seed, 'add', '-A');
  git(seed, 'commit', '--quiet', '-m', 'first');
  git(seed, 'push', '--quiet', 'origin', 'main');
  git(base, 'clone', '--quiet', origin, checkout);
  return {
    origin,
    checkout,
    upstream: 'origin/main',
    commit(subject) {
      writeFileSync(join(seed, `${subject.replace(/\W+/g, '-')}.txt`), subject);
      git(seed, 'add', '-A');
      git(seed, 'commit', '--quiet', '-m', subject);
      git(seed, 'push', '--quiet', 'origin', 'main');
    },
  };
}

describe('hermes update on a git checkout', () => {
  it('--check reports and changes nothing; local changes and local commits are refused; --backup backs up, fast-forwards, builds, migrates; then up to date', async () => {
    const repo = makeCheckout();
    const home = tempHome();
    const env = { HERMES_HOME: home, HERMES_UPDATE_ROOT: repo.checkout };
    const head = () => git(repo.checkout, 'rev-parse', 'HEAD');
    const before = head();
    repo.commit('second: a fix');

    const check = await runHermes(['update', '--check'], { env });
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toContain(`is 1 commit behind ${repo.upstream} (newest: second: a fix)`);
    expect(head()).toBe(before);
    expect(existsSync(join(repo.checkout, 'built.txt'))).toBe(false);

    // a local change to a tracked file stops it, naming the file
    writeFileSync(
      join(repo.checkout, 'package.json'),
      `${readFileSync(join(repo.checkout, 'package.json'), 'utf8')}\n`,
    );
    const dirty = await runHermes(['update'], { env });
    expect(dirty.code).toBe(1);
    expect(dirty.stderr).toMatch(/has local changes \(1 file, e\.g\. M package\.json\): commit or stash them first/);
    expect(head()).toBe(before);
    git(repo.checkout, 'checkout', '--quiet', '--', 'package.json');

    // the agent's terminal tool may look (--check) but never install new code
    const byAgent = await runHermes(['update'], { env: { ...env, HERMES_AGENT_TERMINAL: '1' } });
    expect(byAgent.code).toBe(2);
    expect(byAgent.stderr).toContain("run by the agent's terminal tool");
    expect(head()).toBe(before);

    const updated = await runHermes(['update', '--backup'], { env, timeoutMs: 120_000 });
    expect(updated.code, updated.stderr).toBe(0);
    expect(head()).toBe(git(repo.checkout, 'rev-parse', 'origin/main'));
    expect(updated.stdout).toMatch(/updated .*: [0-9a-f]+ -> [0-9a-f]+ \(1 commit from origin\/main\)/);
    expect(updated.stdout).toContain('installed and built (npm ci)');
    expect(readFileSync(join(repo.checkout, 'built.txt'), 'utf8')).toBe('built');
    // the new code migrated the state; no gateway ran, so none was restarted
    expect(readFileSync(join(repo.checkout, 'calls.log'), 'utf8').trim().split('\n')).toEqual(['state migrate']);
    expect(updated.stdout).toContain('state: state.db: schema version 99');
    expect(updated.stdout).toContain('no gateway running for');
    // --backup ran hermes backup first
    expect(readdirSync(join(home, 'backups')).some((f) => f.endsWith('.tar.gz'))).toBe(true);

    const again = await runHermes(['update'], { env });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`is up to date with ${repo.upstream}`);

    // a local commit: a fast-forward cannot keep it
    writeFileSync(join(repo.checkout, 'local.txt'), 'mine');
    git(repo.checkout, 'add', 'local.txt');
    git(repo.checkout, 'commit', '--quiet', '-m', 'mine');
    repo.commit('third');
    const diverged = await runHermes(['update'], { env });
    expect(diverged.code).toBe(1);
    expect(diverged.stderr).toContain('has 1 local commit not on origin/main: update it by hand (git pull --rebase)');
  }, 180_000);

  it('restarts a running gateway with the new code', async () => {
    const repo = makeCheckout();
    const home = tempHome();
    const env = {
      HERMES_HOME: home,
      HERMES_UPDATE_ROOT: repo.checkout,
      HERMES_GATEWAY_PORT: '0',
      HERMES_LOCK_DIR: join(home, 'locks'),
      HERMES_INFERENCE_MODEL: 'test-model',
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
    };
    const started = await runHermes(['gateway', 'start'], { env, timeoutMs: 60_000 });
    expect(started.code, started.stderr).toBe(0);
    try {
      repo.commit('second');
      const updated = await runHermes(['update'], { env, timeoutMs: 120_000 });
      expect(updated.code, updated.stderr).toBe(0);
      expect(readFileSync(join(repo.checkout, 'calls.log'), 'utf8').trim().split('\n')).toEqual([
        'state migrate',
        'gateway restart',
      ]);
      expect(updated.stdout).toContain('restarted: the new version');
    } finally {
      expect((await runHermes(['gateway', 'stop'], { env, timeoutMs: 60_000 })).code).toBe(0);
    }
  }, 180_000);
});

describe('hermes update on an npm install', () => {
  let registry: Server;
  let registryUrl = '';
  beforeAll(async () => {
    // the registry's packument of one package, as npm view reads it
    registry = createServer((req, res) => {
      if (req.url?.replace(/^\//, '') !== 'fake-hermes-npm') return void res.writeHead(404).end('{}');
      const version = (v: string) => ({
        name: 'fake-hermes-npm',
        version: v,
        dist: { tarball: `${registryUrl}t/${v}.tgz`, shasum: '0' },
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          name: 'fake-hermes-npm',
          'dist-tags': { latest: '0.3.0' },
          versions: { '0.1.0': version('0.1.0'), '0.3.0': version('0.3.0') },
        }),
      );
    });
    await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
    registryUrl = `http://127.0.0.1:${(registry.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    await new Promise((resolve) => registry.close(resolve));
  });

  it("--check names the registry's newest version; outside npm's global folder it says the command to run", async () => {
    const root = tempHome();
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'fake-hermes-npm', version: '0.1.0' }));
    const env = { HERMES_HOME: tempHome(), HERMES_UPDATE_ROOT: root, npm_config_registry: registryUrl };
    const check = await runHermes(['update', '--check'], { env });
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toContain("fake-hermes-npm) 0.1.0 is installed; the registry's newest is 0.3.0");
    const update = await runHermes(['update'], { env });
    expect(update.code, update.stderr).toBe(0);
    expect(update.stdout).toContain("not npm's global install: run `npm install -g fake-hermes-npm@0.3.0`");
  });
});

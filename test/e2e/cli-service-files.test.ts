// The service files match docs/service.md; `gateway install --dry-run` prints them for this
// machine; `hermes logs` reads, filters and follows the log across rotation; SIGUSR1 exits 75.
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { launchdPlist, systemdUnit } from '../../apps/hermes/src/service/service-unit.js';
import { HERMES_BIN, runHermes, tempHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { waitFor } from '../helpers/wait-for.js';

const doc = readFileSync(fileURLToPath(new URL('../../docs/service.md', import.meta.url)), 'utf8');
const block = (lang: string) => new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\``, 'm').exec(doc)?.[1] ?? '';
const example = {
  node: '/usr/local/bin/node',
  bin: '/opt/hermes/apps/hermes/bin/hermes.js',
  root: '/home/alice/.hermes',
  profile: null,
  drainTimeoutS: 30,
  path: '/usr/local/bin:/opt/hermes/apps/hermes/bin:/usr/bin:/bin',
  env: { HERMES_INFERENCE_MODEL: 'llama3.2', OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' },
};

describe('service files', () => {
  it('the systemd unit and the launchd plist are exactly the ones docs/service.md shows', () => {
    expect(systemdUnit(example)).toBe(block('ini'));
    expect(launchdPlist({ ...example, root: '/Users/alice/.hermes' })).toBe(block('xml'));
  });

  it('gateway install --dry-run prints the unit for this machine: this node, this checkout, HERMES_HOME, the drain timeout', async () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), 'gateway:\n  drain_timeout_s: 45\n');
    const r = await runHermes(['gateway', 'install', '--dry-run', '--manager', 'systemd'], {
      env: { HERMES_HOME: home, PATH: '/usr/bin:/bin', HERMES_INFERENCE_MODEL: 'm' },
    });
    expect(r.code, r.stderr).toBe(0);
    const unit = systemdUnit({
      node: process.execPath,
      bin: HERMES_BIN,
      root: home,
      profile: null,
      drainTimeoutS: 45,
      path: [...new Set([dirname(process.execPath), dirname(HERMES_BIN), '/usr/local/bin', '/usr/bin', '/bin'])].join(
        ':',
      ),
      env: { HERMES_INFERENCE_MODEL: 'm' },
    });
    expect(r.stdout).toContain(unit);
    expect(r.stdout).toContain('TimeoutStopSec=75');
    expect(r.stdout).toContain('RestartPreventExitStatus=78');
    expect(r.stdout).toContain(
      '# then: systemctl --user daemon-reload && systemctl --user enable --now hermes-gateway.service',
    );
    const plist = await runHermes(['--profile', 'work', 'gateway', 'install', '--dry-run', '--manager', 'launchd'], {
      env: { HERMES_HOME: home, HERMES_INFERENCE_MODEL: 'm' },
    });
    expect(plist.stdout).toContain('<string>ai.hermes.gateway.work</string>');
    expect(plist.stdout).toContain('<string>--profile</string>');
    const bad = await runHermes(['gateway', 'install', '--dry-run', '--manager', 'upstart'], {
      env: { HERMES_HOME: home },
    });
    expect(bad.code).toBe(2);
  });
});

describe('hermes logs', () => {
  const line = (level: number, msg: string, extra: Record<string, unknown> = {}) =>
    `${JSON.stringify({ level, time: Date.UTC(2026, 10, 22, 10, 0, 0), pid: 1, hostname: 'h', name: 'hermes', component: 'gateway', msg, ...extra })}\n`;

  it('shows the log readable and filtered by level', async () => {
    const home = tempHome();
    mkdirSync(join(home, 'logs'));
    writeFileSync(
      join(home, 'logs', 'gateway.log'),
      line(30, 'gateway listening') + line(40, 'slow hook', { hook: 'x', ms: 1200 }) + line(50, 'send failed'),
    );
    const all = await runHermes(['logs'], { env: { HERMES_HOME: home } });
    expect(all.stdout.trim().split('\n')).toEqual([
      '2026-11-22 10:00:00.000 INFO  [gateway] gateway listening',
      '2026-11-22 10:00:00.000 WARN  [gateway/x] slow hook ms=1200',
      '2026-11-22 10:00:00.000 ERROR [gateway] send failed',
    ]);
    const warn = await runHermes(['logs', '--level', 'WARN'], { env: { HERMES_HOME: home } });
    expect(warn.stdout).not.toContain('gateway listening');
    expect(warn.stdout).toContain('send failed');
    const bad = await runHermes(['logs', '--level', 'loud'], { env: { HERMES_HOME: home } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--level: expected one of trace, debug, info, warn, error, fatal');
  });

  it('--follow prints new lines and follows the file across rotation', async () => {
    const home = tempHome();
    const file = join(home, 'logs', 'gateway.log');
    mkdirSync(join(home, 'logs'));
    writeFileSync(file, line(30, 'before'));
    const child = spawn(process.execPath, [HERMES_BIN, 'logs', '--follow'], {
      env: { ...process.env, HERMES_HOME: home },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const until = (text: string) => waitFor(() => out.includes(text), { what: `"${text}" from hermes logs --follow` });
    try {
      await until('before');
      appendFileSync(file, line(30, 'appended'));
      await until('appended');
      renameSync(file, `${file}.1`);
      writeFileSync(file, line(40, 'after rotation'));
      await until('after rotation');
    } finally {
      child.kill();
    }
  });
});

describe('exit 75', () => {
  it('SIGUSR1 drains the gateway and exits 75 (a restart asked of a supervisor)', async () => {
    const home = tempHome();
    const gw = await spawnGateway({
      HERMES_HOME: home,
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
      HERMES_INFERENCE_MODEL: 'm',
    });
    const exited = new Promise<number | null>((resolve) => gw.child.once('exit', (code) => resolve(code)));
    gw.child.kill('SIGUSR1');
    expect(await exited).toBe(75);
    expect(gw.stderr()).toContain('hermes gateway stopping (SIGUSR1)');
  });
});

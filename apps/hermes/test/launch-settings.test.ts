// The launcher's process-start settings (src/service/launch-settings.ts) reach the process: the
// bin's first two lines carry them (`hermes` typed in a shell), the service units pass them, and the
// launcher takes the malloc variables out of its environment once glibc has read them, so the
// commands Hermes runs do not inherit them.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HERMES_BIN } from '../src/app-paths.js';
import { LAUNCH_ENV, LAUNCH_NODE_FLAGS, launchPreamble } from '../src/service/launch-settings.js';
import { launchdPlist, systemdUnit } from '../src/service/service-unit.js';

const bin = readFileSync(HERMES_BIN, 'utf8');
const IMPORT = "await import('../dist/bundle/main.js');";
const names = Object.keys(LAUNCH_ENV);

describe('launch settings', () => {
  it("the bin starts with the settings' preamble, which a POSIX sh runs and node reads as a string and a comment", () => {
    expect(bin.split('\n').slice(0, 2).join('\n')).toBe(launchPreamble());
    // the shell execs node at line 2 (it never reads the JavaScript below); "$0" is the bin
    const sh = spawnSync('/bin/sh', [HERMES_BIN, '--version'], { encoding: 'utf8' });
    expect(sh.status, sh.stderr).toBe(0);
    expect(sh.stderr).toBe('');
    expect(sh.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it.runIf(process.platform === 'linux')(
    'executing the bin gives node its options and glibc the variables, and what it runs does not inherit them',
    () => {
      expect(bin).toContain(IMPORT);
      // the bin as it is, its last line (the bundle) replaced by a probe of the process
      const probe = `const { readFileSync } = await import('node:fs');
const { execFileSync } = await import('node:child_process');
const names = ${JSON.stringify(names)};
const atStart = readFileSync('/proc/self/environ', 'utf8').split('\\0');
const child = execFileSync('/bin/sh', ['-c', 'env'], { encoding: 'utf8' }).split('\\n');
console.log(JSON.stringify({
  execArgv: process.execArgv,
  atStart: atStart.filter((e) => names.some((n) => e.startsWith(n + '='))),
  env: names.filter((n) => n in process.env),
  child: child.filter((e) => names.some((n) => e.startsWith(n + '='))),
}));`;
      const dir = mkdtempSync(join(tmpdir(), 'hermes-launch-'));
      const script = join(dir, 'hermes.mjs');
      writeFileSync(script, bin.replace(IMPORT, probe));
      chmodSync(script, 0o755);
      const env = { ...process.env };
      for (const n of names) delete env[n];
      const run = spawnSync(script, [], { encoding: 'utf8', env });
      expect(run.status, run.stderr).toBe(0);
      const seen = JSON.parse(run.stdout) as { execArgv: string[]; atStart: string[]; env: string[]; child: string[] };
      expect(seen.execArgv).toEqual([...LAUNCH_NODE_FLAGS]);
      expect(seen.atStart.sort()).toEqual(Object.entries(LAUNCH_ENV).map(([k, v]) => `${k}=${v}`));
      expect(seen.env).toEqual([]);
      expect(seen.child).toEqual([]);
    },
  );

  it('the service units run node with the same options and variables', () => {
    const input = {
      node: '/usr/bin/node',
      bin: '/opt/hermes/apps/hermes/bin/hermes.js',
      root: '/home/a/.hermes',
      profile: null,
      drainTimeoutS: 30,
      path: '/usr/bin:/bin',
      env: {},
    };
    const unit = systemdUnit(input);
    expect(unit).toContain(`ExecStart=/usr/bin/node ${LAUNCH_NODE_FLAGS.join(' ')} ${input.bin} gateway run`);
    for (const [k, v] of Object.entries(LAUNCH_ENV)) expect(unit).toContain(`Environment=${k}=${v}\n`);
    const plist = launchdPlist(input);
    expect(plist).toContain(
      `<string>/usr/bin/node</string>\n${LAUNCH_NODE_FLAGS.map((f) => `    <string>${f}</string>\n`).join('')}    <string>${input.bin}</string>`,
    );
    for (const [k, v] of Object.entries(LAUNCH_ENV))
      expect(plist).toContain(`<key>${k}</key>\n    <string>${v}</string>`);
  });
});

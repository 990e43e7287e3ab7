/**
 * bin/hermes.js runs the CLI's bundle (apps/hermes/bundle.mjs, part of `npm run build`): a start
 * loads its few files, not the ~660 modules of the per-file build, and the bundle finds the app's
 * own files (package.json, bin/, the bundled plugins, the example hooks) from where it sits.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runResolving } from '../../../test/helpers/resolved-modules.js';
import { APP_PACKAGE_JSON, BUNDLED_PLUGINS_DIR, EXAMPLE_HOOKS_DIR, HERMES_BIN } from '../src/app-paths.js';

const dir = mkdtempSync(join(tmpdir(), 'hermes-bundle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** Runs the built CLI with `args`; returns its output and the file URLs it loaded. */
function runLogged(args: string[]): { stdout: string; urls: string[] } {
  const run = runResolving([HERMES_BIN, ...args], { HERMES_HOME: join(dir, 'home') });
  expect(run.status, run.stderr).toBe(0);
  return { stdout: run.stdout, urls: run.urls.filter((u) => u.startsWith('file:')) };
}

describe('the CLI bundle', () => {
  it('bin/hermes.js loads the bundle, not the per-file build of the app or of the packages it joins', () => {
    const { stdout, urls } = runLogged(['plugins', 'list', '--json']);
    const version = (JSON.parse(readFileSync(APP_PACKAGE_JSON, 'utf8')) as { version: string }).version;
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    // the bundled plugins were found from the bundle's folder
    const plugins = JSON.parse(stdout) as { key: string; source: string }[];
    expect(plugins.filter((p) => p.source === 'bundled').map((p) => p.key)).toContain('platforms/telegram');
    const own = urls.map((u) => fileURLToPath(u).slice(ROOT.length)).filter((p) => !p.includes('node_modules/'));
    expect(own.filter((p) => p.startsWith('apps/hermes/dist/bundle/')).length).toBeGreaterThan(0);
    // no module of the per-file build of apps/hermes, agent, gateway, store, config, plugins or logging
    const perFile = own.filter((p) =>
      /^(apps\/hermes\/dist\/(?!bundle\/)|packages\/(agent|gateway|store|config|plugins|logging)\/dist\/)/.test(p),
    );
    expect(perFile).toEqual([]);
  });

  it("finds the app's files from its own folder", () => {
    expect(existsSync(HERMES_BIN)).toBe(true);
    expect(existsSync(join(BUNDLED_PLUGINS_DIR, 'platforms', 'telegram', 'plugin.yaml'))).toBe(true);
    expect(existsSync(join(EXAMPLE_HOOKS_DIR, 'boot-md', 'HOOK.yaml'))).toBe(true);
    const { stdout } = runLogged(['--version']);
    expect(stdout.trim()).toBe((JSON.parse(readFileSync(APP_PACKAGE_JSON, 'utf8')) as { version: string }).version);
  });
});

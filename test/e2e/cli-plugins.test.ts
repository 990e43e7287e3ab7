import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runHermes, tempHome, trustHome } from '../helpers/run-hermes.js';

const BUNDLED_DIR = fileURLToPath(new URL('../../plugins', import.meta.url));

interface Entry {
  key: string;
  name: string;
  version: string | null;
  kind: string;
  state: string;
  source: string;
  tools: string[];
  hooks: string[];
  commands: string[];
  error: string | null;
}

const TOOL_PLUGIN = (tool: string, body = "'ok'") => `
export function register(ctx: { registerTool(t: unknown): void }): void {
  ctx.registerTool({
    name: '${tool}',
    toolset: '${tool}',
    schema: { name: '${tool}', description: 'test tool', parameters: { type: 'object', properties: {} } },
    handler: () => ${body},
  });
}
`;

/** Writes HOME/plugins/<name>/ with plugin.yaml and index.ts. */
function writePlugin(home: string, name: string, yaml: string, code: string): void {
  const dir = join(home, 'plugins', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'plugin.yaml'), yaml);
  writeFileSync(join(dir, 'index.ts'), code);
}

async function listJson(env: Record<string, string>): Promise<Entry[]> {
  const r = await runHermes(['plugins', 'list', '--json'], { env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Entry[];
}

const find = (entries: Entry[], key: string) => entries.find((e) => e.key === key);

/** Bundled plugin keys expected from the repository's plugins/ folder (`name` or `category/name`). */
function bundledKeys(): string[] {
  const keys: string[] = [];
  for (const d of readdirSync(BUNDLED_DIR, { withFileTypes: true })) {
    if (!d.isDirectory()) continue;
    const dir = join(BUNDLED_DIR, d.name);
    if (existsSync(join(dir, 'plugin.yaml'))) keys.push(d.name);
    else
      for (const c of readdirSync(dir, { withFileTypes: true })) {
        if (c.isDirectory() && existsSync(join(dir, c.name, 'plugin.yaml'))) keys.push(`${d.name}/${c.name}`);
      }
  }
  return keys;
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    stdio: 'pipe',
  });

/** A local git repository holding a plugin whose requires_env has a rich, secret entry. */
function pluginRepo(version: string): string {
  const repo = mkdtempSync(join(tmpdir(), 'hermes-plugin-repo-'));
  git(repo, 'init', '-q');
  commitPlugin(repo, version, 'first');
  return repo;
}

function commitPlugin(repo: string, version: string, answer: string): void {
  writeFileSync(
    join(repo, 'plugin.yaml'),
    [
      'name: weather',
      `version: ${version}`,
      'description: Weather lookups',
      'requires_env:',
      '  - name: WEATHER_API_KEY',
      '    description: Weather API key',
      '    url: https://weather.example/keys',
      '    secret: true',
      '',
    ].join('\n'),
  );
  writeFileSync(join(repo, 'index.ts'), TOOL_PLUGIN('weather_now', `'${answer}'`));
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', `version ${version}`);
}

describe('hermes plugins list', () => {
  it('shows a user TypeScript plugin as not_enabled, next to the bundled ones', async () => {
    const home = tempHome();
    writePlugin(home, 'hello', 'name: hello\nversion: 1.0.0\n', TOOL_PLUGIN('hello_tool'));
    const env = { HERMES_HOME: home };
    const table = await runHermes(['plugins', 'list'], { env });
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^KEY\s+VERSION\s+STATE\s+SOURCE\s+TOOLS\s+HOOKS\s+ERROR$/m);
    expect(table.stdout).toMatch(/^hello\s+1\.0\.0\s+not_enabled\s+user\s/m);
    const entries = await listJson(env);
    expect(find(entries, 'hello')).toMatchObject({ state: 'not_enabled', source: 'user', tools: [] });
    for (const key of bundledKeys()) expect(find(entries, key), key).toMatchObject({ source: 'bundled' });
    // bare `hermes plugins` with piped stdin prints the same table
    const bare = await runHermes(['plugins'], { env });
    expect(bare.code).toBe(0);
    expect(bare.stdout).toMatch(/^hello\s+1\.0\.0\s+not_enabled/m);
  });

  it('--json prints exactly the documented shape', async () => {
    const home = tempHome();
    writePlugin(home, 'hello', 'name: hello\nversion: 2.1.0\n', TOOL_PLUGIN('hello_tool'));
    writeFileSync(join(home, 'config.yaml'), 'plugins:\n  enabled: [hello]\n');
    trustHome(home); // an enabled user plugin runs only once the operator approved its files
    const entries = await listJson({ HERMES_HOME: home });
    expect(Array.isArray(entries)).toBe(true);
    for (const e of entries) {
      expect(Object.keys(e).sort()).toEqual(
        ['commands', 'error', 'hooks', 'key', 'kind', 'name', 'source', 'state', 'tools', 'version'].sort(),
      );
      expect(['enabled', 'disabled', 'not_enabled', 'failed', 'env_missing', 'deps_missing', 'not_approved']).toContain(
        e.state,
      );
    }
    expect(find(entries, 'hello')).toEqual({
      key: 'hello',
      name: 'hello',
      version: '2.1.0',
      kind: 'standalone',
      state: 'enabled',
      source: 'user',
      tools: ['hello_tool'],
      hooks: [],
      commands: [],
      error: null,
    });
  });

  it('a plugin whose register() throws is failed, with the error', async () => {
    const home = tempHome();
    writePlugin(
      home,
      'broken',
      'name: broken\n',
      "export function register(): void { throw new Error('kaboom in register'); }\n",
    );
    writeFileSync(join(home, 'config.yaml'), 'plugins:\n  enabled: [broken]\n');
    trustHome(home);
    const entries = await listJson({ HERMES_HOME: home });
    expect(find(entries, 'broken')).toMatchObject({ state: 'failed', tools: [] });
    expect(find(entries, 'broken')?.error).toContain('kaboom in register');
    const table = await runHermes(['plugins', 'list'], { env: { HERMES_HOME: home } });
    expect(table.stdout).toMatch(/^broken\s.*failed.*kaboom in register$/m);
  });

  it('an enabled plugin without its requires_env is env_missing, naming the variable', async () => {
    const home = tempHome();
    writePlugin(home, 'needy', 'name: needy\nrequires_env: [NEEDY_TOKEN]\n', TOOL_PLUGIN('needy_tool'));
    writeFileSync(join(home, 'config.yaml'), 'plugins:\n  enabled: [needy]\n');
    trustHome(home);
    const entries = await listJson({ HERMES_HOME: home });
    expect(find(entries, 'needy')).toMatchObject({ state: 'env_missing' });
    expect(find(entries, 'needy')?.error).toContain('NEEDY_TOKEN');
    // set in .env: it loads
    writeFileSync(join(home, '.env'), 'NEEDY_TOKEN=abc\n');
    expect(find(await listJson({ HERMES_HOME: home }), 'needy')).toMatchObject({ state: 'enabled' });
  });
});

describe('hermes plugins enable / disable', () => {
  it('enable writes plugins.enabled; disable moves it to plugins.disabled and wins', async () => {
    const home = tempHome();
    writePlugin(home, 'hello', 'name: hello\n', TOOL_PLUGIN('hello_tool'));
    const env = { HERMES_HOME: home };
    const on = await runHermes(['plugins', 'enable', 'hello'], { env });
    expect(on.code, on.stderr).toBe(0);
    expect(on.stdout).toContain('enabled hello (added to plugins.enabled)');
    expect(readFileSync(join(home, 'config.yaml'), 'utf8')).toMatch(/enabled:\s*\n\s*- hello/);
    // enabled from piped stdin: no consent recorded, so nothing runs it until the operator approves
    expect(find(await listJson(env), 'hello')).toMatchObject({ state: 'not_approved', tools: [] });
    trustHome(home);
    expect(find(await listJson(env), 'hello')).toMatchObject({ state: 'enabled', tools: ['hello_tool'] });
    const again = await runHermes(['plugins', 'enable', 'hello'], { env });
    expect(again.stdout).toContain('hello is already enabled');

    const off = await runHermes(['plugins', 'disable', 'hello'], { env });
    expect(off.code).toBe(0);
    expect(off.stdout).toContain('disabled hello (added to plugins.disabled, removed from plugins.enabled)');
    expect(find(await listJson(env), 'hello')).toMatchObject({ state: 'disabled' });

    // listed in both (by hand): disabled wins
    writeFileSync(join(home, 'config.yaml'), 'plugins:\n  enabled: [hello]\n  disabled: [hello]\n');
    expect(find(await listJson(env), 'hello')).toMatchObject({ state: 'disabled', tools: [] });
  });

  it('an unknown name exits 1 listing the known keys and the closest one', async () => {
    const home = tempHome();
    writePlugin(home, 'hello', 'name: hello\n', TOOL_PLUGIN('hello_tool'));
    const r = await runHermes(['plugins', 'enable', 'helo'], { env: { HERMES_HOME: home } });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toMatch(/^hermes: unknown plugin 'helo'; known: .*hello.*did you mean 'hello'/);
    expect(existsSync(join(home, 'config.yaml'))).toBe(false);
    expect((await runHermes(['plugins', 'disable'], { env: { HERMES_HOME: home } })).code).toBe(2);
  });
});

describe('hermes plugins install / update / remove', () => {
  it('installs from a git repository, asks for the secret, enables; update and remove', async () => {
    const home = tempHome();
    const env = { HERMES_HOME: home };
    const repo = pluginRepo('1.0.0');
    const secret = 'sk-weather-very-secret-42';
    const r = await runHermes(['plugins', 'install', `file://${repo}`, '--enable', '--yes'], {
      env,
      input: `${secret}\n`,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('WEATHER_API_KEY (Weather API key, https://weather.example/keys): ');
    expect(r.stdout).toContain('installed weather 1.0.0');
    expect(`${r.stdout}${r.stderr}`).not.toContain(secret);

    const dir = join(home, 'plugins', 'weather');
    expect(existsSync(join(dir, 'plugin.yaml'))).toBe(true);
    expect(existsSync(join(dir, 'index.ts'))).toBe(true);
    expect(existsSync(join(dir, '.git'))).toBe(false);
    const record = JSON.parse(readFileSync(join(dir, '.hermes-install.json'), 'utf8')) as { source: string };
    expect(record.source).toBe(`file://${repo}`);
    const envFile = join(home, '.env');
    expect(readFileSync(envFile, 'utf8')).toBe(`WEATHER_API_KEY=${secret}\n`);
    expect(statSync(envFile).mode & 0o777).toBe(0o600);
    expect(find(await listJson(env), 'weather')).toMatchObject({
      state: 'enabled',
      version: '1.0.0',
      tools: ['weather_now'],
    });

    // installing again needs --force
    const twice = await runHermes(['plugins', 'install', `file://${repo}`, '--no-enable'], { env });
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/already installed.*--force/);

    // a new commit upstream: update picks it up and keeps the plugin enabled (no prompt: the key is set)
    commitPlugin(repo, '1.1.0', 'second');
    const up = await runHermes(['plugins', 'update', 'weather'], { env });
    expect(up.code, up.stderr).toBe(0);
    expect(up.stdout).toContain('updated weather 1.0.0 -> 1.1.0');
    expect(up.stdout).not.toContain('WEATHER_API_KEY (');
    expect(readFileSync(join(dir, 'index.ts'), 'utf8')).toContain("'second'");
    // new code: it waits for the operator's approval again
    expect(find(await listJson(env), 'weather')).toMatchObject({ state: 'not_approved', version: '1.1.0' });
    trustHome(home);
    expect(find(await listJson(env), 'weather')).toMatchObject({ state: 'enabled', version: '1.1.0' });

    const rm = await runHermes(['plugins', 'remove', 'weather'], { env });
    expect(rm.code, rm.stderr).toBe(0);
    expect(existsSync(dir)).toBe(false);
    expect(find(await listJson(env), 'weather')).toBeUndefined();
    expect(readFileSync(join(home, 'config.yaml'), 'utf8')).not.toContain('weather');
    expect((await runHermes(['plugins', 'remove', 'weather'], { env })).code).toBe(1);
  });

  it('without a flag on piped stdin it does not enable; an empty answer leaves the variable unset', async () => {
    const home = tempHome();
    const repo = pluginRepo('1.0.0');
    const r = await runHermes(['plugins', 'install', `file://${repo}`], { env: { HERMES_HOME: home }, input: '\n' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('WEATHER_API_KEY left unset');
    expect(r.stdout).toContain('not enabled; run: hermes plugins enable weather');
    expect(existsSync(join(home, '.env'))).toBe(false);
    expect(find(await listJson({ HERMES_HOME: home }), 'weather')).toMatchObject({ state: 'not_enabled' });
  });

  it('refuses an invalid manifest before copying anything', async () => {
    const home = tempHome();
    const repo = mkdtempSync(join(tmpdir(), 'hermes-plugin-bad-'));
    git(repo, 'init', '-q');
    writeFileSync(join(repo, 'plugin.yaml'), 'name: "not a valid name!"\nversion: 1.0.0\n');
    writeFileSync(join(repo, 'index.ts'), TOOL_PLUGIN('bad_tool'));
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'bad');
    const r = await runHermes(['plugins', 'install', `file://${repo}`, '--enable'], { env: { HERMES_HOME: home } });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^hermes: .*plugin\.yaml:1: name: /);
    expect(existsSync(join(home, 'plugins'))).toBe(false);
    expect(existsSync(join(home, 'config.yaml'))).toBe(false);
  });

  it('installs from a local folder and from npm:<local folder> (npm pack + tar)', async () => {
    const home = tempHome();
    const env = { HERMES_HOME: home };
    const src = mkdtempSync(join(tmpdir(), 'hermes-plugin-dir-'));
    writeFileSync(join(src, 'plugin.yaml'), 'name: localone\nversion: 0.1.0\n');
    writeFileSync(join(src, 'index.ts'), TOOL_PLUGIN('local_tool'));
    const local = await runHermes(['plugins', 'install', src, '--no-enable'], { env });
    expect(local.code, local.stderr).toBe(0);
    expect(find(await listJson(env), 'localone')).toMatchObject({ state: 'not_enabled', version: '0.1.0' });

    const pkg = mkdtempSync(join(tmpdir(), 'hermes-plugin-npm-'));
    writeFileSync(join(pkg, 'package.json'), '{"name":"hermes-plugin-npmone","version":"0.2.0"}\n');
    writeFileSync(join(pkg, 'plugin.yaml'), 'name: npmone\nversion: 0.2.0\n');
    writeFileSync(join(pkg, 'index.js'), 'export function register() {}\n');
    const npm = await runHermes(['plugins', 'install', `npm:${pkg}`, '--enable', '--yes'], { env, timeoutMs: 60_000 });
    expect(npm.code, npm.stderr).toBe(0);
    expect(find(await listJson(env), 'npmone')).toMatchObject({ state: 'enabled', version: '0.2.0' });
  }, 90_000);
});

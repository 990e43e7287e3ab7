// Gateway hooks need consent: a hook folder written into HERMES_HOME/hooks (by a prompt-injected
// write_file, say) is never imported by `hermes gateway run` until `hermes hooks approve NAME`;
// the approval binds to the folder's files, so an edit of any of them makes it pending again.
// Through the built CLI, API-only gateway, the fake model.
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runHermes, tempHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { waitFor } from '../helpers/wait-for.js';

const openai = useFakeOpenAI();
const env = (home: string, extra: Record<string, string> = {}) => ({
  HERMES_HOME: home,
  OPENAI_BASE_URL: openai.server.url,
  HERMES_INFERENCE_MODEL: 'test-model',
  HOOK_LOG: join(home, 'hook-log.txt'),
  ...extra,
});
const hermes = (home: string, args: string[], extra: Record<string, string> = {}) =>
  runHermes(args, { env: env(home, extra) });

/** A hook whose handler imports a sibling file; it writes to HOOK_LOG when imported and when it runs. */
function writeHook(home: string, name: string): void {
  const dir = join(home, 'hooks', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'HOOK.yaml'), `name: ${name}\ndescription: test hook\nevents: ["gateway:startup"]\n`);
  writeFileSync(join(dir, 'lib.ts'), `export const TAG = '${name}';\n`);
  writeFileSync(
    join(dir, 'handler.ts'),
    `import { appendFileSync } from 'node:fs';
import { TAG } from './lib.ts';
appendFileSync(process.env.HOOK_LOG as string, 'imported ' + TAG + '\\n');
export function handle(event: string) { appendFileSync(process.env.HOOK_LOG as string, 'ran ' + TAG + ' ' + event + '\\n'); }
`,
  );
}

const hookLog = (home: string) =>
  existsSync(join(home, 'hook-log.txt')) ? readFileSync(join(home, 'hook-log.txt'), 'utf8') : '';
const count = (home: string, line: string) =>
  hookLog(home)
    .split('\n')
    .filter((l) => l === line).length;
const gatewayLog = (home: string) => readFileSync(join(home, 'logs', 'gateway.log'), 'utf8');

/** One gateway start: waits until the `control` hook (approved) has run `runs` times in all, then stops. */
/** Starts the gateway, waits for the control hook's `runs`-th run (and each `also` hook's count: the hooks share a worker thread), stops it. */
async function startOnce(
  home: string,
  runs: number,
  extra: Record<string, string> = {},
  args: string[] = [],
  also: Record<string, number> = {},
) {
  const gw = await spawnGateway(env(home, extra), 30_000, args);
  try {
    await waitFor(() => count(home, 'ran control gateway:startup') >= runs, { what: `control hook run ${runs}` });
    for (const [name, n] of Object.entries(also)) {
      await waitFor(() => count(home, `ran ${name} gateway:startup`) >= n, { what: `${name} hook run ${n}` });
    }
  } finally {
    expect(await gw.stop()).toBe(0);
  }
  return gw.stderr();
}

interface Listed {
  gateway: { name: string; consent: string | null; pending_reason: string | null }[];
}
async function consentOf(home: string): Promise<Record<string, string>> {
  const listed = JSON.parse((await hermes(home, ['hooks', 'list', '--json'])).stdout) as Listed;
  return Object.fromEntries(
    listed.gateway.map((g) => [g.name, g.consent === 'pending' ? `pending:${g.pending_reason}` : String(g.consent)]),
  );
}

describe('gateway hook consent', () => {
  it('a hook written into HERMES_HOME/hooks is not loaded until approved; an edit of a sibling file makes it pending again', async () => {
    const home = tempHome();
    writeHook(home, 'control');
    writeHook(home, 'injected');
    expect(await consentOf(home)).toEqual({ control: 'pending:new', injected: 'pending:new' });
    const approved = await hermes(home, ['hooks', 'approve', 'control']);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toContain('control: approved (new; sha256');
    expect(approved.stdout).toContain('over HOOK.yaml, handler.ts, lib.ts');
    const text = (await hermes(home, ['hooks', 'list'])).stdout;
    expect(text).toMatch(/injected\s+pending \(new\)/);
    expect(text).toMatch(/control\s+approved/);

    // start 1: control runs; injected is never imported; one log line and one stderr line say why
    const stderr1 = await startOnce(home, 1);
    expect(hookLog(home)).not.toContain('injected');
    const line = 'gateway hook injected not loaded: not approved (new); run `hermes hooks approve injected`';
    expect(stderr1).toContain(line);
    expect(gatewayLog(home)).toContain(line);
    expect(gatewayLog(home)).not.toContain('gateway hook control not loaded');

    // doctor, hooks doctor and hooks test report it and never run it
    const doctor = await hermes(home, ['hooks', 'doctor']);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain('✗ gateway hook injected: pending (new): not loaded by the gateway');
    expect(doctor.stdout).toContain('✓ gateway hook control: approved');
    const test = await hermes(home, ['hooks', 'test', 'gateway:startup']);
    expect(test.code).toBe(1);
    expect(test.stdout).toContain('not run: not approved (new)');
    expect(hookLog(home)).not.toContain('injected');
    const general = JSON.parse((await hermes(home, ['doctor', '--json'])).stdout) as {
      checks: { name: string; status: string; detail: string }[];
    };
    expect(general.checks).toContainEqual(
      expect.objectContaining({
        name: 'gateway hooks',
        status: 'warn',
        detail: expect.stringContaining('injected pending (new)'),
      }),
    );

    // approved: it loads at the next start
    expect((await hermes(home, ['hooks', 'approve', 'injected'])).code).toBe(0);
    await startOnce(home, 2, {}, [], { injected: 1 });
    expect(count(home, 'ran injected gateway:startup')).toBe(1);

    // a sibling module the handler imports is edited: pending (changed) and not loaded again
    appendFileSync(join(home, 'hooks', 'injected', 'lib.ts'), 'export const PAYLOAD = "changed";\n');
    expect((await consentOf(home)).injected).toBe('pending:changed');
    const stderr3 = await startOnce(home, 3);
    expect(stderr3).toContain('gateway hook injected not loaded: not approved (changed since approval)');
    expect(count(home, 'ran injected gateway:startup')).toBe(1);
    // a new file in the folder counts too
    writeFileSync(join(home, 'hooks', 'control', 'extra.ts'), 'export {};\n');
    expect((await consentOf(home)).control).toBe('pending:changed');

    // revoke works by hook name; --all approves every pending one
    expect((await hermes(home, ['hooks', 'approve', '--all'])).code).toBe(0);
    expect(await consentOf(home)).toEqual({ control: 'approved', injected: 'approved' });
    const revoked = await hermes(home, ['hooks', 'revoke', 'injected']);
    expect(revoked.stdout).toContain('Revoked the approval of gateway hook injected');
    expect((await consentOf(home)).injected).toBe('pending:new');
    const store = JSON.parse(readFileSync(join(home, 'shell-hooks-allowlist.json'), 'utf8')) as {
      approvals: { kind: string; name: string; via: string }[];
    };
    expect(store.approvals).toEqual([
      expect.objectContaining({ kind: 'gateway', name: 'control', via: 'hermes hooks approve' }),
    ]);
  }, 120_000);

  it('--accept-hooks and HERMES_ACCEPT_HOOKS=1 load pending hooks and record the consent', async () => {
    const home = tempHome();
    writeHook(home, 'control');
    writeHook(home, 'other');
    await startOnce(home, 1, {}, ['--accept-hooks'], { other: 1 });
    expect(count(home, 'ran other gateway:startup')).toBe(1);
    expect(await consentOf(home)).toEqual({ control: 'approved', other: 'approved' });
    // edited, then accepted by the env var
    appendFileSync(join(home, 'hooks', 'other', 'lib.ts'), '// edited\n');
    await startOnce(home, 2, { HERMES_ACCEPT_HOOKS: '1' }, [], { other: 2 });
    expect(count(home, 'ran other gateway:startup')).toBe(2);
    const store = JSON.parse(readFileSync(join(home, 'shell-hooks-allowlist.json'), 'utf8')) as {
      approvals: { name: string; via: string }[];
    };
    expect(Object.fromEntries(store.approvals.map((a) => [a.name, a.via]))).toEqual({
      control: '--accept-hooks',
      other: 'HERMES_ACCEPT_HOOKS',
    });
    // recorded: the next start without either loads both
    const stderr = await startOnce(home, 3, {}, [], { other: 3 });
    expect(stderr).not.toContain('not loaded');
    expect(count(home, 'ran other gateway:startup')).toBe(3);
  }, 120_000);

  it('hooks install approves exactly what it wrote: the example loads without a flag; an edit makes it pending', async () => {
    const home = tempHome();
    const install = await hermes(home, ['hooks', 'install', 'command-logger']);
    expect(install.code, install.stderr).toBe(0);
    expect(await consentOf(home)).toEqual({ 'command-logger': 'approved' });
    const gw = await spawnGateway(env(home));
    expect(await gw.stop()).toBe(0);
    expect(gw.stderr()).not.toContain('not loaded');
    expect(gatewayLog(home)).toContain(
      'gateway hooks attached (their worker thread starts at the first of their events): command-logger',
    );
    appendFileSync(join(home, 'hooks', 'command-logger', 'handler.ts'), '\n// edited\n');
    expect(await consentOf(home)).toEqual({ 'command-logger': 'pending:changed' });
    // --force replaces the folder (a leftover file is not approved along with it)
    writeFileSync(join(home, 'hooks', 'command-logger', 'leftover.ts'), 'export {};\n');
    expect((await hermes(home, ['hooks', 'install', 'command-logger', '--force'])).code).toBe(0);
    expect(existsSync(join(home, 'hooks', 'command-logger', 'leftover.ts'))).toBe(false);
    expect(await consentOf(home)).toEqual({ 'command-logger': 'approved' });
  }, 120_000);
});

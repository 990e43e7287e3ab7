// An enabled plugin the operator has not approved never runs, whatever CLI command is typed: not
// only `gateway run` (trust.test.ts) but every command that runs plugins' register() to learn what
// they add (plugins list, doctor, skills list, model list, fallback list, a plugin's own command,
// bare `hermes --help`). A plugin the model writes into HERMES_HOME/plugins and names in
// plugins.enabled would otherwise run at the operator's next `hermes plugins list`. Once approved,
// the same commands run it; a change to its files makes it wait again.
import { appendFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runHermes, tempHome } from '../helpers/run-hermes.js';

const COMMANDS = [
  ['plugins', 'list'],
  ['doctor'],
  ['skills', 'list'],
  ['model', 'list'],
  ['fallback', 'list'],
  ['--help'],
  ['sneaky'],
];

function writeSneakyPlugin(home: string): void {
  const dir = join(home, 'plugins', 'sneaky');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'plugin.yaml'), 'name: sneaky\nversion: 1.0.0\ndescription: runs at register\n');
  // register() leaves a mark named after the command that ran it, and adds a command of its own
  writeFileSync(
    join(dir, 'index.ts'),
    `import { writeFileSync } from 'node:fs';
export function register(ctx) {
  writeFileSync(process.env.HERMES_HOME + '/ran-' + process.argv.slice(2).join('_').replace(/[^a-z_-]/g, ''), 'x');
  ctx.registerCliCommand({ name: 'sneaky', help: 'a plugin command', setup: (cmd) => cmd.action(() => {}) });
}
`,
  );
  writeFileSync(join(home, 'config.yaml'), 'plugins:\n  enabled: [sneaky]\n');
}

const marks = (home: string) => readdirSync(home).filter((f) => f.startsWith('ran-'));

describe('an enabled plugin the operator has not approved', () => {
  it('runs under no CLI command; plugins list names it not_approved with the command that approves it; approved, it runs; changed, it waits again', async () => {
    const home = tempHome();
    writeSneakyPlugin(home);
    const env = { HERMES_HOME: home, HERMES_INFERENCE_MODEL: 'test-model', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' };
    for (const args of COMMANDS) await runHermes(args, { env });
    expect(marks(home)).toEqual([]);

    const list = await runHermes(['plugins', 'list', '--json'], { env });
    const sneaky = (JSON.parse(list.stdout) as { key: string; state: string; error: string | null }[]).find(
      (p) => p.key === 'sneaky',
    );
    expect(sneaky).toMatchObject({ state: 'not_approved' });
    expect(sneaky?.error).toContain('hermes trust approve plugin:sneaky');
    const doctor = await runHermes(['doctor'], { env });
    expect(doctor.stdout).toMatch(/plugin sneaky.*not approved/);

    const approved = await runHermes(['trust', 'approve', 'plugin:sneaky', '--yes'], { env });
    expect(approved.code, approved.stderr).toBe(0);
    await runHermes(['plugins', 'list'], { env });
    expect(existsSync(join(home, 'ran-plugins_list'))).toBe(true);

    // its files changed since approval: no command runs it again
    appendFileSync(join(home, 'plugins', 'sneaky', 'index.ts'), '// changed\n');
    const before = marks(home).length;
    for (const args of COMMANDS) await runHermes(args, { env });
    expect(marks(home)).toHaveLength(before);
  }, 120_000);
});

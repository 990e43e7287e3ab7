// A memory provider's own commands (docs/memory.md, "The provider's own commands"): a memory
// provider plugin's cli.ts gives `hermes <provider> ...` only while memory.provider names it;
// otherwise `hermes <provider>` exits 1 saying why and what to run, and the help leaves it out.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runHermes, tempHome, trustHome } from '../helpers/run-hermes.js';

const INDEX = `import { defineMemoryProvider, type PluginContext } from '@hermes/plugin-sdk';
export function register(ctx: PluginContext): void {
  ctx.registerMemoryProvider(defineMemoryProvider({ name: 'notebook', systemPromptBlock: () => '' }));
}
`;

const CLI = `import { defineMemoryCli } from '@hermes/plugin-sdk';
export const registerCli = defineMemoryCli((command, info) => {
  command
    .command('pages')
    .description('count the pages')
    .option('--loud', 'shout it')
    .action((opts) => {
      const line = 'notebook of ' + info.key + ' keeps its data in ' + info.dataDir;
      process.stdout.write(((opts as { loud?: boolean }).loud ? line.toUpperCase() : line) + '\\n');
    });
});
`;

/** HERMES_HOME with the notebook memory provider plugin in plugins/memory/notebook, approved when enabled. */
function homeWith(config: string, cli = CLI): { home: string; dir: string } {
  const home = tempHome();
  const dir = join(home, 'plugins', 'memory', 'notebook');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'plugin.yaml'), 'name: notebook\nversion: 1.0.0\ndescription: Notes kept in a notebook\n');
  writeFileSync(join(dir, 'index.ts'), INDEX);
  writeFileSync(join(dir, 'cli.ts'), cli);
  writeFileSync(join(home, 'config.yaml'), config);
  trustHome(home);
  return { home, dir };
}

const ENABLED = 'plugins:\n  enabled: [memory/notebook]\n';
const env = (home: string) => ({ HERMES_HOME: home });
const helpLists = (stdout: string) => /^ {2}notebook +Notes kept in a notebook$/m.test(stdout);

describe('a memory provider plugin’s own commands', () => {
  it('active: its command runs, with its options and its data folder, and the help lists it', async () => {
    const { home } = homeWith(`${ENABLED}memory:\n  provider: notebook\n`);
    const r = await runHermes(['notebook', 'pages', '--loud'], { env: env(home) });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      `NOTEBOOK OF MEMORY/NOTEBOOK KEEPS ITS DATA IN ${join(home, 'plugin-data', 'memory', 'notebook').toUpperCase()}\n`,
    );
    expect(r.code).toBe(0);
    const help = await runHermes(['--help'], { env: env(home) });
    expect(help.code).toBe(0);
    expect(helpLists(help.stdout)).toBe(true);
    const own = await runHermes(['notebook', '--help'], { env: env(home) });
    expect(own.stdout).toMatch(/pages \[options\] +count the pages/);
    // an unknown sub-command is a usage error, as for a built-in command
    const typo = await runHermes(['notebook', 'pagez'], { env: env(home) });
    expect(typo.code).toBe(2);
  });

  it('inactive: `hermes notebook` says so and how to select it (exit 1); the help leaves it out', async () => {
    const { home } = homeWith(ENABLED);
    for (const args of [['notebook', 'pages'], ['notebook'], ['notebook', '--help']]) {
      const r = await runHermes(args, { env: env(home) });
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        'hermes: notebook is not the active memory provider (memory.provider is builtin): run `hermes config set memory.provider notebook` to make it so\n',
      );
    }
    const help = await runHermes(['--help'], { env: env(home) });
    expect(helpLists(help.stdout)).toBe(false);
    expect(help.stdout).not.toContain('notebook');

    // selecting it the way the message says makes the command run
    const set = await runHermes(['config', 'set', 'memory.provider', 'notebook'], { env: env(home) });
    expect(set.code, set.stderr).toBe(0);
    const r = await runHermes(['notebook', 'pages'], { env: env(home) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('notebook of memory/notebook');
  });

  it('a memory/ plugin that is not enabled: the message names both commands to run', async () => {
    const { home } = homeWith('');
    const r = await runHermes(['notebook', 'pages'], { env: env(home) });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'hermes: notebook is not the active memory provider (memory.provider is builtin) and its plugin memory/notebook is not loaded (not enabled): run `hermes plugins enable memory/notebook` and `hermes config set memory.provider notebook`\n',
    );
    const selected = homeWith('memory:\n  provider: notebook\n');
    const s = await runHermes(['notebook', 'pages'], { env: env(selected.home) });
    expect(s.code).toBe(1);
    expect(s.stderr).toBe(
      'hermes: notebook is the memory provider, but its plugin memory/notebook is not loaded (not enabled): run `hermes plugins enable memory/notebook`\n',
    );
    // the help does not list a provider whose plugin does not load
    expect((await runHermes(['--help'], { env: env(selected.home) })).stdout).not.toContain('notebook');
  });

  it('cli.ts changed since the approval: not run, the approve command named', async () => {
    const { home, dir } = homeWith(`${ENABLED}memory:\n  provider: notebook\n`);
    appendFileSync(join(dir, 'cli.ts'), "\nprocess.stdout.write('changed code ran\\n');\n");
    const r = await runHermes(['notebook', 'pages'], { env: env(home) });
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain('changed code ran');
    expect(r.stderr).toBe(
      'hermes: plugin memory/notebook is not approved: run `hermes trust approve plugin:memory/notebook`\n',
    );
  });

  it('a cli.ts without registerCli: one line naming the file (exit 1)', async () => {
    const { home, dir } = homeWith(`${ENABLED}memory:\n  provider: notebook\n`, 'export const nothing = 1;\n');
    const r = await runHermes(['notebook', 'pages'], { env: env(home) });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `hermes: the commands of memory provider notebook failed to load: ${join(dir, 'cli.ts')} exports no registerCli(command) function\n`,
    );
  });
});

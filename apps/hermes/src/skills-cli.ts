/** `hermes skills list` and `hermes skills tap ...` on the program (the commands' code loads only when one runs). */
import type { Command } from 'commander';
import type { GlobalOptions } from './main.js';

export function addSkillsCommands(program: Command, globals: (cmd: Command) => GlobalOptions): void {
  const skillsCmd = program
    .command('skills')
    .description('skills: HERMES_HOME/skills/<name>/SKILL.md, the ones plugins bundle and skill taps');
  skillsCmd
    .command('list')
    .description('list the skills with their source (user folder, plugin or tap); broken ones with their error')
    .option('--json', 'print JSON')
    .action(async (_opts, cmd: Command) => {
      const { skillsList } = await import('./commands/skills.js');
      const options = globals(cmd);
      await skillsList(options, { json: options.json === true });
    });
  const tap = skillsCmd
    .command('tap')
    .description('skill taps: repositories of skills cloned into HERMES_HOME/skill-taps/<name>/');
  tap
    .command('add')
    .description('clone a repository of skills (shallow); its skills join as <tap>:<skill> once approved')
    .argument('<src>', 'owner/repo (GitHub), a git URL or a local git repository')
    .option('--name <name>', 'the tap name (default: the repository name)')
    .option('--yes', 'record consent for its files without a terminal (see hermes trust)')
    .action(async (src: string, opts: { name?: string; yes?: boolean }, cmd: Command) => {
      const { tapAdd } = await import('./commands/skills-tap.js');
      await tapAdd(src, opts, globals(cmd));
    });
  tap
    .command('list')
    .description('every tap: origin, commit, skills, consent')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const { tapList } = await import('./commands/skills-tap.js');
      const options = globals(cmd);
      await tapList(options, { json: options.json === true || opts.json === true });
    });
  tap
    .command('update')
    .description('git pull --ff-only each tap (or NAME) and show what changed')
    .argument('[name]', 'the tap')
    .option('--yes', 'record consent for the new files without a terminal (see hermes trust)')
    .action(async (name: string | undefined, opts: { yes?: boolean }, cmd: Command) => {
      const { tapUpdate } = await import('./commands/skills-tap.js');
      await tapUpdate(name, opts, globals(cmd));
    });
  tap
    .command('remove')
    .description('delete a tap and its approval')
    .argument('<name>', 'the tap')
    .action(async (name: string, _opts, cmd: Command) => {
      const { tapRemove } = await import('./commands/skills-tap.js');
      await tapRemove(name, globals(cmd));
    });
}

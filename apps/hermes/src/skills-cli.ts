/** `hermes skills list` on the program (the command's code loads only when it runs). */
import type { Command } from 'commander';
import type { GlobalOptions } from './main.js';

export function addSkillsCommands(program: Command, globals: (cmd: Command) => GlobalOptions): void {
  const skillsCmd = program
    .command('skills')
    .description('skills: HERMES_HOME/skills/<name>/SKILL.md and the ones plugins bundle');
  skillsCmd
    .command('list')
    .description('list the skills with their source (user folder or plugin); broken ones with their error')
    .option('--json', 'print JSON')
    .action(async (_opts, cmd: Command) => {
      const { skillsList } = await import('./commands/skills.js');
      const options = globals(cmd);
      await skillsList(options, { json: options.json === true });
    });
}

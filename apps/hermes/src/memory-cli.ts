/** `hermes memory show|clear` on the program (the commands' code loads only when one runs). */
import type { Command } from 'commander';
import type { GlobalOptions } from './main.js';

export function addMemoryCommands(program: Command, globals: (cmd: Command) => GlobalOptions): void {
  const memoryCmd = program
    .command('memory')
    .description("the builtin memory provider's files: HERMES_HOME/memories/MEMORY.md and each user's profile");
  memoryCmd
    .command('show')
    .description("print the entries of MEMORY.md and a user's profile with their size and limit")
    .option('--target <target>', 'memory or user (default: both)')
    .option('--user <identity>', 'whose profile, e.g. telegram:111 (default: users.owner)')
    .action(async (opts: { target?: string; user?: string }, cmd: Command) => {
      const { memoryShow } = await import('./commands/memory.js');
      await memoryShow(globals(cmd), opts);
    });
  memoryCmd
    .command('clear')
    .description("delete every entry of MEMORY.md and a user's profile (asks first)")
    .option('--target <target>', 'memory or user (default: both)')
    .option('--user <identity>', 'whose profile, e.g. telegram:111 (default: users.owner)')
    .option('-y, --yes', 'do not ask')
    .action(async (opts: { target?: string; user?: string; yes?: boolean }, cmd: Command) => {
      const { memoryClear } = await import('./commands/memory.js');
      await memoryClear(globals(cmd), opts);
    });
}

/** `hermes state migrate|copy` on the `state` command group (the commands' code loads only when one runs). */
import type { Command } from 'commander';
import type { GlobalOptions } from './main.js';

export function addStateBackendCommands(stateCmd: Command, globals: (cmd: Command) => GlobalOptions): void {
  stateCmd
    .command('migrate')
    .description(
      'bring the configured backend (state.backend: state.db, or PostgreSQL at HERMES_DATABASE_URL) to the newest schema',
    )
    .action(async (_opts, cmd: Command) => {
      const { stateMigrate } = await import('./commands/state-backend.js');
      await stateMigrate(globals(cmd));
    });
  stateCmd
    .command('copy')
    .description(
      'copy every table of state.db to an empty PostgreSQL database in one transaction; prints the row counts',
    )
    .option('--to <url>', 'postgres://user:password@host:port/db (default: HERMES_DATABASE_URL)')
    .option('--force', 'replace the rows a non-empty target holds')
    .action(async (opts: { to?: string; force?: boolean }, cmd: Command) => {
      const { stateCopy } = await import('./commands/state-backend.js');
      await stateCopy(globals(cmd), opts);
    });
}

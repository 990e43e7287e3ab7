/** `hermes trust list|approve|revoke` on the program (the commands' code loads only when one runs). */
import type { Command } from 'commander';
import type { GlobalOptions } from './main.js';

export function addTrustCommands(program: Command, globals: (cmd: Command) => GlobalOptions): void {
  const trust = program
    .command('trust')
    .description('consent for what the gateway loads at start: plugins, MCP servers, skills, hook hatches');
  trust
    .command('list')
    .description('every item that needs consent and its state (approved, pending new or changed)')
    .option('--json', 'one JSON array')
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const { trustList } = await import('./commands/trust.js');
      const global = globals(cmd);
      await trustList(global, { json: global.json === true || opts.json === true });
    });
  trust
    .command('approve')
    .description('approve items as they are now (their content hash is recorded); only at a terminal or with --yes')
    .argument('[ids...]', 'item ids as shown by trust list, e.g. plugin:weather mcp:github')
    .option('--all', 'approve every pending item')
    .option('--yes', 'record consent without a terminal (scripts; never from the agent terminal)')
    .action(async (ids: string[], opts: { all?: boolean; yes?: boolean }, cmd: Command) => {
      const { trustApprove } = await import('./commands/trust.js');
      await trustApprove(ids, globals(cmd), opts);
    });
  trust
    .command('revoke')
    .description('forget the approval of ID (it is not loaded at the next start)')
    .argument('<id>', 'item id')
    .action(async (id: string, _opts, cmd: Command) => {
      const { trustRevoke } = await import('./commands/trust.js');
      await trustRevoke(id, globals(cmd));
    });
}

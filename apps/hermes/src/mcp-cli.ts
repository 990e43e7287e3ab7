/** `hermes mcp list|test` on the program (the commands' code loads only when one runs). */
import type { Command } from 'commander';
import type { GlobalOptions } from './main.js';

export function addMcpCommands(program: Command, globals: (cmd: Command) => GlobalOptions): void {
  const mcpCmd = program.command('mcp').description('the MCP servers of mcp_servers in config.yaml');
  mcpCmd
    .command('list')
    .description('each server: transport, state (connects to each), tool count')
    .option('--json', 'one JSON array')
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const { mcpList } = await import('./commands/mcp.js');
      const global = globals(cmd);
      await mcpList(global, { json: global.json === true || opts.json === true });
    });
  mcpCmd
    .command('test <name>')
    .description('connect to one server and list its tools as the model sees them; non-zero exit on failure')
    .option('--json', 'the status as JSON')
    .action(async (name: string, opts: { json?: boolean }, cmd: Command) => {
      const { mcpTest } = await import('./commands/mcp.js');
      const global = globals(cmd);
      await mcpTest(global, name, { json: global.json === true || opts.json === true });
    });
}

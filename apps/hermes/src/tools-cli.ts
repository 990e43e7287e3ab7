/** `hermes tools list|enable|disable` on the program (the commands' code loads only when one runs). */
import type { Command } from 'commander';
import type { GlobalOptions } from './main.js';

export function addToolsCommands(program: Command, globals: (cmd: Command) => GlobalOptions): void {
  const tools = program.command('tools').description('the toolsets the agent is offered, everywhere or per platform');
  tools
    .command('list')
    .description(
      'each toolset, its tools, and whether it is offered (agent.toolsets; per platform where one narrows it)',
    )
    .option('--platform <name>', 'only whether each is offered on this platform')
    .option('--json', 'one JSON array')
    .action(async (opts: { platform?: string; json?: boolean }, cmd: Command) => {
      const { toolsList } = await import('./commands/tools.js');
      const global = globals(cmd);
      await toolsList(global, { ...opts, json: global.json === true || opts.json === true });
    });
  for (const [name, enable] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    tools
      .command(name)
      .description(`${name} a toolset (or one tool) in agent.toolsets, or for one platform with --platform`)
      .argument('<toolset>', 'a toolset name from hermes tools list (or a tool name)')
      .option('--platform <name>', 'edit gateway.platforms.<name>.toolsets instead')
      .action(async (toolset: string, opts: { platform?: string }, cmd: Command) => {
        const { toolsToggle } = await import('./commands/tools.js');
        await toolsToggle(globals(cmd), toolset, enable, opts);
      });
  }
}

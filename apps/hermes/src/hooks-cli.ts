/** `hermes hooks list|test|approve|revoke|doctor|install` on the program (each command's code loads only when it runs). */
import type { Command } from 'commander';
import type { GlobalOptions } from './main.js';

export function addHooksCommands(program: Command, globals: (cmd: Command) => GlobalOptions): void {
  const hooksCmd = program
    .command('hooks')
    .description(
      'shell hooks (the hooks: block of config.yaml) and gateway hooks (HERMES_HOME/hooks): list, test, approve, revoke, doctor',
    );
  hooksCmd
    .command('list')
    .description(
      'shell hooks with matcher, timeout and consent; gateway hooks with events and handler (or why invalid)',
    )
    .option('--json', 'print JSON: {shell, gateway}')
    .action(async (_opts, cmd: Command) => {
      const { hooksList } = await import('./commands/hooks-list.js');
      await hooksList(globals(cmd));
    });
  hooksCmd
    .command('test')
    .description('fire every hook of EVENT once with a synthetic payload and print each parsed response')
    .argument(
      '<event>',
      'a plugin hook event (pre_tool_call, pre_llm_call, ...) or a gateway event (agent:end, command:new, ...)',
    )
    .option('--for-tool <name>', 'tool events: the tool name in the payload')
    .option('--payload-file <file>', 'JSON object merged over the example payload (wire names, e.g. tool_input)')
    .option('--json', 'print JSON')
    .action(async (event: string, opts: { forTool?: string; payloadFile?: string }, cmd: Command) => {
      const { hooksTest } = await import('./commands/hooks-test.js');
      await hooksTest(event, opts, globals(cmd));
    });
  hooksCmd
    .command('approve')
    .description(
      'allow a gateway hook of HERMES_HOME/hooks (bound to its files now); it loads at the next gateway start',
    )
    .argument('[name]', 'the hook name (HOOK.yaml name, as hooks list shows it)')
    .option('--all', 'approve every pending gateway hook')
    .action(async (name: string | undefined, opts: { all?: boolean }, cmd: Command) => {
      const { hooksApprove } = await import('./commands/hooks-approve.js');
      await hooksApprove(name, opts, globals(cmd));
    });
  hooksCmd
    .command('revoke')
    .description(
      'remove the consent of a shell hook COMMAND or a gateway hook NAME (the next run asks again / the hook is pending)',
    )
    .argument('<command>', 'the command as written in config.yaml, or a gateway hook name')
    .action(async (command: string, _opts, cmd: Command) => {
      const { hooksRevoke } = await import('./commands/hooks-revoke.js');
      await hooksRevoke(command, globals(cmd));
    });
  hooksCmd
    .command('doctor')
    .description(
      'per shell hook: executable, consent, script drift, one run (JSON validity, time); exit 1 on a problem',
    )
    .option('--json', 'print JSON')
    .action(async (_opts, cmd: Command) => {
      const { hooksDoctor } = await import('./commands/hooks-doctor.js');
      await hooksDoctor(globals(cmd));
    });

  hooksCmd
    .command('install')
    .description(
      'copy an example gateway hook (boot-md, long-task-alert, command-logger, session-webhook) into HERMES_HOME/hooks',
    )
    .argument('<name>', 'the example hook')
    .option('--force', 'overwrite an existing folder of that name')
    .action(async (name: string, opts: { force?: boolean }, cmd: Command) => {
      const { hooksInstall } = await import('./commands/hooks-install.js');
      await hooksInstall(name, opts, globals(cmd));
    });
}

/**
 * The `hermes` command line. Thin: parses arguments and calls the packages. Heavy modules are
 * imported inside actions so `hermes --help` stays fast.
 */

import { exitProcess, installExitGuard } from '@hermes/protocol';
import { Command, CommanderError, Option } from 'commander';
import { CliExit, errorLine, exitCodeFor } from './cli-error.js';
import { addLocalPostgresCommands } from './commands/state-postgres.js';
import { addCronCommands } from './cron-cli.js';
import { addHooksCommands } from './hooks-cli.js';
import { addMcpCommands } from './mcp-cli.js';
import { addMemoryCommands } from './memory-cli.js';
import { addModelCommands } from './model-cli.js';
import { addPluginDepsCommand } from './plugin-deps-cli.js';
import { addSessionsCommands } from './sessions-cli.js';
import { addSkillsCommands } from './skills-cli.js';
import { addStateBackendCommands } from './state-pg-cli.js';
import { addToolsCommands } from './tools-cli.js';
import { addTrustCommands } from './trust-cli.js';
import { VERSION } from './version.js';

export interface GlobalOptions {
  profile?: string;
  json?: boolean;
  yolo?: boolean;
  model?: string;
  /** model provider for this run (overrides model.provider) */
  provider?: string;
  /** run shell hooks from config.yaml without asking (and record the consent) */
  acceptHooks?: boolean;
}

function globals(cmd: Command): GlobalOptions {
  return cmd.optsWithGlobals<GlobalOptions>();
}

const program = new Command('hermes')
  .description('Hermes: an AI agent you chat with from the terminal, Telegram, Discord and Slack')
  .version(VERSION, '-V, --version')
  .option('-z, --oneshot <prompt>', 'run the agent once on PROMPT and print only the final answer')
  .option('--profile <name>', 'use HERMES_HOME/profiles/<name> (or set HERMES_PROFILE)')
  .option('-m, --model <id>', 'model id for this run (overrides model.default)')
  .option('--provider <name>', 'model provider for this run (overrides model.provider; see hermes model list)')
  .option('--yolo', 'run dangerous terminal commands without asking for approval')
  .option(
    '--accept-hooks',
    'allow the shell hooks of config.yaml and the gateway hooks of HERMES_HOME/hooks without asking (the consent is recorded)',
  )
  .addOption(new Option('--json', 'machine-readable output for listings').hideHelp())
  .showHelpAfterError('(run hermes --help for usage)')
  .exitOverride()
  .configureOutput({ writeErr: (s) => process.stderr.write(s) })
  .action(async (_opts, cmd: Command) => {
    const opts = cmd.opts<GlobalOptions & { oneshot?: string }>();
    if (opts.oneshot === undefined) {
      // bare `hermes` is the chat (its banner lists the tools); without a model yet, the help
      const { bareHermes } = await import('./commands/bare.js');
      await bareHermes(globals(cmd), () => cmd.outputHelp());
      return;
    }
    const { runOneShot } = await import('./commands/oneshot.js');
    await runOneShot(opts.oneshot, globals(cmd));
  });

program
  .command('chat')
  .description('interactive chat in the terminal (/new starts over, /exit quits, Ctrl+C interrupts a turn)')
  .action(async (_opts, cmd: Command) => {
    const { runChat } = await import('./commands/chat.js');
    await runChat(globals(cmd));
  });

const config = program.command('config').description('show, locate or change config.yaml');
config
  .command('show')
  .description('print the effective configuration (secrets masked)')
  .option('--json', 'print JSON')
  .action(async (_opts, cmd: Command) => {
    const { configShow } = await import('./commands/config.js');
    await configShow(globals(cmd));
  });
config
  .command('path')
  .description('print the path of config.yaml')
  .action(async (_opts, cmd: Command) => {
    const { configPath } = await import('./commands/config.js');
    await configPath(globals(cmd));
  });
config
  .command('set')
  .description('set KEY (dotted, e.g. model.default) to VALUE in config.yaml, keeping comments')
  .argument('<key>', 'dotted config key')
  .argument('<value>', 'new value')
  .option('--yes', 'record consent for a code-loading key (hooks_auto_accept, mcp_servers.*) without a terminal')
  .action(async (key: string, value: string, opts: { yes?: boolean }, cmd: Command) => {
    const { configSet } = await import('./commands/config.js');
    await configSet(key, value, globals(cmd), opts.yes === true);
  });

const plugins = program
  .command('plugins')
  .description('list, enable, disable, install, update and remove plugins (bare: interactive toggle list)')
  .action(async (_opts, cmd: Command) => {
    const { pluginsInteractive } = await import('./commands/plugins-interactive.js');
    await pluginsInteractive(globals(cmd));
  });
plugins
  .command('list')
  .description('every discovered plugin: key, version, state, source, tools, hooks, error')
  .option('--json', 'print JSON')
  .action(async (_opts, cmd: Command) => {
    const { pluginsList } = await import('./commands/plugins-list.js');
    await pluginsList(globals(cmd));
  });
plugins
  .command('enable')
  .description('add NAME to plugins.enabled (and drop it from plugins.disabled)')
  .argument('<name>', 'plugin key, as shown by plugins list')
  .option('--yes', 'record consent for its files without a terminal (see hermes trust)')
  .action(async (name: string, opts: { yes?: boolean }, cmd: Command) => {
    const { pluginsEnable } = await import('./commands/plugins-toggle.js');
    await pluginsEnable(name, globals(cmd), opts.yes === true);
  });
plugins
  .command('disable')
  .description('add NAME to plugins.disabled (and drop it from plugins.enabled)')
  .argument('<name>', 'plugin key, as shown by plugins list')
  .action(async (name: string, _opts, cmd: Command) => {
    const { pluginsDisable } = await import('./commands/plugins-toggle.js');
    await pluginsDisable(name, globals(cmd));
  });
plugins
  .command('install')
  .description('install a plugin from a folder, a git URL, owner/repo (GitHub) or npm:<package>')
  .argument('<src>', 'folder, git URL, owner/repo or npm:<package>')
  .option('--enable', 'enable it without asking')
  .option('--no-enable', 'leave it disabled without asking')
  .option('--force', 'replace an installed plugin of the same name')
  .option('--yes', 'with --enable: record consent for its files without a terminal (see hermes trust)')
  .action(async (src: string, opts: { enable?: boolean; force?: boolean; yes?: boolean }, cmd: Command) => {
    const { pluginsInstall } = await import('./commands/plugins-install.js');
    await pluginsInstall(src, opts, globals(cmd));
  });
plugins
  .command('update')
  .description('re-install NAME from the source it was installed from (enabled state kept)')
  .argument('<name>', 'installed plugin name')
  .action(async (name: string, _opts, cmd: Command) => {
    const { pluginsUpdate } = await import('./commands/plugins-update.js');
    await pluginsUpdate(name, globals(cmd));
  });
plugins
  .command('remove')
  .description('delete an installed plugin from HERMES_HOME/plugins and from plugins.enabled/disabled')
  .argument('<name>', 'installed plugin name')
  .action(async (name: string, _opts, cmd: Command) => {
    const { pluginsRemove } = await import('./commands/plugins-remove.js');
    await pluginsRemove(name, globals(cmd));
  });
addPluginDepsCommand(plugins, globals);

addModelCommands(program, globals);

const pairing = program
  .command('pairing')
  .description('approve or revoke users who asked the bot for access with a pairing code');
pairing
  .command('list')
  .description('pending pairing codes and approved users')
  .option('--json', 'print JSON')
  .action(async (_opts, cmd: Command) => {
    const { pairingList } = await import('./commands/pairing.js');
    await pairingList(globals(cmd));
  });
pairing
  .command('approve')
  .description('let the user holding CODE talk to the bot on PLATFORM (takes effect at once)')
  .argument('<platform>', 'telegram, discord, slack, …')
  .argument('<code>', 'the 8-character code the user was given (any case)')
  .action(async (platform: string, code: string, _opts, cmd: Command) => {
    const { pairingApprove } = await import('./commands/pairing.js');
    await pairingApprove(platform, code, globals(cmd));
  });
pairing
  .command('revoke')
  .description("remove USER_ID's approval on PLATFORM")
  .argument('<platform>', 'telegram, discord, slack, …')
  .argument('<user_id>', 'the platform user id, as shown by pairing list')
  .action(async (platform: string, userId: string, _opts, cmd: Command) => {
    const { pairingRevoke } = await import('./commands/pairing.js');
    await pairingRevoke(platform, userId, globals(cmd));
  });

addHooksCommands(program, globals);

const consoleCmd = program.command('console').description('the operator console (web): its login');
consoleCmd
  .command('url')
  .description('print a one-time login URL for the console (valid 10 minutes, once)')
  .action(async (_opts, cmd: Command) => {
    const { consoleUrl } = await import('./commands/console-url.js');
    await consoleUrl(globals(cmd));
  });

const gatewayCmd = program.command('gateway').description('run and manage the messaging gateway');
gatewayCmd
  .command('run')
  .description('run the gateway in the foreground (what a service manager or container runs)')
  .option('--replace', 'take over from a gateway already running on this HERMES_HOME (graceful stop first)')
  .action(async (opts: { replace?: boolean }, cmd: Command) => {
    const { runGateway } = await import('./commands/gateway-run.js');
    await runGateway(globals(cmd), opts);
  });
gatewayCmd
  .command('start')
  .description('start the gateway in the background; returns once /health is ready (or fails with the reason)')
  .option('--all', 'every profile')
  .action(async (opts: { all?: boolean }, cmd: Command) => {
    const { startCommand } = await import('./commands/gateway-service.js');
    await startCommand({ ...globals(cmd), ...opts });
  });
gatewayCmd
  .command('stop')
  .description('stop the gateway: drain (gateway.drain_timeout_s), then SIGKILL; no process is left')
  .option('--all', 'every profile')
  .action(async (opts: { all?: boolean }, cmd: Command) => {
    const { stopCommand } = await import('./commands/gateway-service.js');
    await stopCommand({ ...globals(cmd), ...opts });
  });
gatewayCmd
  .command('restart')
  .description('graceful stop, then start (a new process; nothing lost or repeated)')
  .option('--all', 'every profile')
  .action(async (opts: { all?: boolean }, cmd: Command) => {
    const { restartCommand } = await import('./commands/gateway-service.js');
    await restartCommand({ ...globals(cmd), ...opts });
  });
gatewayCmd
  .command('reload')
  .description(
    'apply config.yaml, plugins, hooks, skills and MCP servers without a restart (SIGHUP); exit 0 applied, 75 some changes need a restart, 1 a part failed, 78 invalid config',
  )
  .option('--json', 'print the result as JSON')
  .action(async (opts: { json?: boolean }, cmd: Command) => {
    const { reloadCommand } = await import('./commands/gateway-reload.js');
    await reloadCommand({ ...globals(cmd), ...opts });
  });
gatewayCmd
  .command('install')
  .description('install the gateway as a service: a systemd user unit (Linux) or a launchd agent (macOS)')
  .option('--dry-run', 'print the unit file and the commands instead')
  .option('--manager <name>', "systemd or launchd (default: this machine's)")
  .action(async (opts: { dryRun?: boolean; manager?: string }, cmd: Command) => {
    const { installCommand } = await import('./commands/gateway-install.js');
    await installCommand(opts, globals(cmd));
  });
gatewayCmd
  .command('uninstall')
  .description('stop and remove the service installed by gateway install')
  .option('--dry-run', 'print what would be done')
  .option('--manager <name>', "systemd or launchd (default: this machine's)")
  .action(async (opts: { dryRun?: boolean; manager?: string }, cmd: Command) => {
    const { uninstallCommand } = await import('./commands/gateway-install.js');
    await uninstallCommand(opts, globals(cmd));
  });
gatewayCmd
  .command('status')
  .description('running or not, pid, uptime, version, platforms; exit 0 running, 3 not running')
  .option('--json', 'print JSON: {running, pid, uptime_s, version, home, platforms}')
  .option('--all', 'every profile')
  .action(async (opts: { all?: boolean }, cmd: Command) => {
    const { statusCommand } = await import('./commands/gateway-service.js');
    await statusCommand({ ...globals(cmd), ...opts });
  });

const stateCmd = program
  .command('state')
  .description('retention and compaction of state.db; migrations, and copying it to PostgreSQL');
stateCmd
  .command('prune')
  .description('delete transcripts of sessions idle longer than N days, and finished inbox/outbox/pairing rows')
  .option('--days <n>', 'idle days to keep (default: state.retention_days)')
  .option('--dry-run', 'count what would be deleted, delete nothing')
  .action(async (opts: { days?: string; dryRun?: boolean }, cmd: Command) => {
    const { statePrune } = await import('./commands/state.js');
    await statePrune(globals(cmd), opts);
  });
stateCmd
  .command('vacuum')
  .description(
    'rewrite state.db without its free pages (the gateway must be stopped); prints the size before and after',
  )
  .action(async (_opts, cmd: Command) => {
    const { stateVacuum } = await import('./commands/state.js');
    await stateVacuum(globals(cmd));
  });
addStateBackendCommands(stateCmd, globals);
addLocalPostgresCommands(stateCmd, globals);

addMemoryCommands(program, globals);
addSkillsCommands(program, globals);
addMcpCommands(program, globals);
addTrustCommands(program, globals);
addSessionsCommands(program, globals);
addToolsCommands(program, globals);
addCronCommands(program, globals);

program
  .command('backup')
  .description('one .tar.gz of HERMES_HOME with a consistent copy of state.db (safe while the gateway runs)')
  .option('-o, --output <file>', 'where to write it (default HERMES_HOME/backups/hermes-backup-<time>.tar.gz)')
  .action(async (opts: { output?: string }, cmd: Command) => {
    const { backupCommand } = await import('./commands/backup.js');
    await backupCommand(opts, globals(cmd));
  });

program
  .command('update')
  .description(
    "update this installation: a git checkout fast-forwards, npm ci (builds), migrates the state and restarts a running gateway; an npm install takes the registry's newest",
  )
  .option('--check', 'only report whether an update is available')
  .option('--backup', 'run hermes backup first')
  .action(async (opts: { check?: boolean; backup?: boolean }, cmd: Command) => {
    const { updateCommand } = await import('./commands/update.js');
    await updateCommand(opts, globals(cmd));
  });

program
  .command('logs')
  .description('the gateway log, readable and coloured on a terminal; --follow keeps reading (and follows rotation)')
  .option('-f, --follow', 'keep printing new lines')
  .option('--level <level>', 'only this level and above: trace, debug, info, warn, error, fatal')
  .option('-n, --lines <n>', 'how many earlier lines to show', '200')
  .option('--file <name>', 'which log: gateway (default) or cli', 'gateway')
  .action(async (opts: { follow?: boolean; level?: string; lines?: string; file?: string }, cmd: Command) => {
    const { logsCommand } = await import('./commands/logs.js');
    await logsCommand(opts, globals(cmd));
  });

program
  .command('doctor')
  .description('check config, state, model reachability and plugins')
  .option('--json', 'print JSON')
  .action(async (_opts, cmd: Command) => {
    const { runDoctor } = await import('./commands/doctor.js');
    await runDoctor(globals(cmd));
  });

/** Runs the CLI; resolves with the process exit code. */
export async function main(argv: string[]): Promise<number> {
  try {
    const valued = new Set(['-z', '--oneshot', '--profile', '-m', '--model', '--provider']);
    let first = argv.slice(2).find((a, i, all) => !a.startsWith('-') && !valued.has(all[i - 1] ?? ''));
    if (first === 'help') {
      // `hermes help [command...]` is `hermes [command...] --help`
      argv = [...argv.filter((a) => a !== 'help'), '--help'];
      first = argv.slice(2).find((a, i, all) => !a.startsWith('-') && !valued.has(all[i - 1] ?? ''));
    }
    if (first === undefined && (argv.includes('--help') || argv.includes('-h'))) {
      // the active memory provider's commands (memory-cli-help.ts: a glance at config.yaml first)
      const { addMemoryCliForHelp } = await import('./memory-cli-help.js');
      await addMemoryCliForHelp(program, argv);
    }
    if (first && !program.commands.some((c) => c.name() === first || c.aliases().includes(first))) {
      const { addPluginCliCommands } = await import('./plugin-cli.js');
      const profile = argv[argv.indexOf('--profile') + 1];
      await addPluginCliCommands(program, argv.includes('--profile') && profile ? { profile } : {});
      if (!program.commands.some((c) => c.name() === first || c.aliases().includes(first))) {
        const { unknownCommandMessage } = await import('./unknown-command.js');
        process.stderr.write(unknownCommandMessage(program, first));
        return 2;
      }
    }
    if (first !== undefined && program.commands.some((c) => c.name() === first && c.commands.length > 0)) {
      const { sayUnknownSubcommandsAlike } = await import('./unknown-command.js');
      sayUnknownSubcommandsAlike(program);
    }
    await program.parseAsync(argv);
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.exitCode === 0) return 0;
      return 2;
    }
    if (err instanceof CliExit) {
      if (err.message) process.stderr.write(`${errorLine(err)}\n`);
      return err.exitCode;
    }
    process.stderr.write(`${errorLine(err)}\n`);
    return exitCodeFor(err);
  }
}

// plugin code must not end the process: process.exit throws from here on; the CLI leaves through exitProcess
installExitGuard();
const code = await main(process.argv);
exitProcess(code);

/** `hermes cron add|edit|list|remove|pause|resume|run` on the program (the commands' code loads only when one runs). */
import type { Command } from 'commander';
import type { CronAddOptions } from './commands/cron.js';
import type { CronEditOptions } from './commands/cron-edit.js';
import type { GlobalOptions } from './main.js';

export function addCronCommands(program: Command, globals: (cmd: Command) => GlobalOptions): void {
  const cron = program
    .command('cron')
    .description('scheduled jobs: prompts the running gateway runs on a schedule (docs/cron.md)');
  cron
    .command('add')
    .description('add a job: SCHEDULE is a cron expression, "every 30m" or a time ("in 2h", an ISO time)')
    .argument('<schedule>', 'when: "0 8 * * *", "every 30m", "in 2h", "2026-12-01T08:00"')
    .argument('<prompt>', 'what the agent should do on each run')
    .option('--name <name>', 'a short name (default: from the prompt)')
    .option('--deliver <target>', 'where answers go: home (default), none, telegram|discord|slack, platform:chat_id')
    .option('--toolsets <list>', "the run's toolsets, comma-separated (default: agent.toolsets)")
    .option('--tz <zone>', 'IANA time zone (default: cron.timezone, else the machine’s)')
    .option(
      '--script <name>',
      'a script of HERMES_HOME/scripts run before each run (needs hermes trust approve script:NAME)',
    )
    .option('--context-from <id>', "give each run this job's latest answer")
    .option('--json', 'print JSON')
    .action(async (schedule: string, prompt: string, opts: CronAddOptions, cmd: Command) => {
      const { cronAdd } = await import('./commands/cron.js');
      await cronAdd(globals(cmd), schedule, prompt, opts);
    });
  cron
    .command('edit')
    .description("change a job's name, prompt, target, toolsets, pre-run script or upstream job (its schedule stays)")
    .argument('<id>', 'the job id (hermes cron list)')
    .option('--name <name>', 'a new name')
    .option('--prompt <prompt>', 'a new prompt')
    .option('--deliver <target>', 'home, none, telegram|discord|slack, platform:chat_id')
    .option('--toolsets <list>', 'comma-separated; "" for agent.toolsets')
    .option('--script <name>', 'a script of HERMES_HOME/scripts run before each run')
    .option('--no-script', 'run no script before the runs')
    .option('--context-from <id>', "give each run this job's latest answer")
    .option('--no-context-from', "stop giving the runs another job's answer")
    .option('--json', 'print JSON')
    .action(async (id: string, opts: CronEditOptions, cmd: Command) => {
      const { cronEdit } = await import('./commands/cron-edit.js');
      await cronEdit(globals(cmd), id, opts);
    });
  cron
    .command('list')
    .description('every job with its schedule, state, next run and last result')
    .option('--json', 'print JSON')
    .action(async (_opts, cmd: Command) => {
      const { cronList } = await import('./commands/cron.js');
      await cronList(globals(cmd));
    });
  const byId = (name: 'remove' | 'pause' | 'resume' | 'run', description: string) =>
    cron
      .command(name)
      .description(description)
      .argument('<id>', 'the job id (hermes cron list)')
      .option('--json', 'print JSON')
      .action(async (id: string, _opts, cmd: Command) => {
        const { cronChange } = await import('./commands/cron.js');
        await cronChange(globals(cmd), name, id);
      });
  byId('remove', 'delete a job');
  byId('pause', 'stop a job from running until resumed');
  byId('resume', 'run a paused job again from its next slot');
  byId('run', 'run a job now: the running gateway fires it within a few seconds (or at its next start)');
}

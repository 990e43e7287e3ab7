/** `hermes sessions list|show|export|delete|prune` on the program (the commands' code loads only when one runs). */
import type { Command } from 'commander';
import type { GlobalOptions } from './main.js';

export function addSessionsCommands(program: Command, globals: (cmd: Command) => GlobalOptions): void {
  const sessions = program
    .command('sessions')
    .description('the stored conversations: list, show, export, delete, prune');
  sessions
    .command('list')
    .description('the most recently updated sessions: id, platform, messages, when, state, title, key and user')
    .option('--platform <name>', 'only this platform (e.g. telegram, api, cli)')
    .option('--limit <n>', 'how many (default 20)')
    .option('--json', 'one JSON array')
    .action(async (opts: { platform?: string; limit?: string; json?: boolean }, cmd: Command) => {
      const { sessionsList } = await import('./commands/sessions.js');
      const global = globals(cmd);
      await sessionsList(global, { ...opts, json: global.json === true || opts.json === true });
    });
  sessions
    .command('show')
    .description('a session and its transcript')
    .argument('<id>', 'session id (hermes sessions list)')
    .option('--json', 'the session and its messages as JSON')
    .action(async (id: string, opts: { json?: boolean }, cmd: Command) => {
      const { sessionsShow } = await import('./commands/sessions.js');
      const global = globals(cmd);
      await sessionsShow(global, id, { json: global.json === true || opts.json === true });
    });
  sessions
    .command('export')
    .description('a session as JSON (default) or Markdown, to stdout or a file')
    .argument('<id>', 'session id')
    .option('-o, --output <file>', 'write to FILE (mode 0600) instead of stdout')
    .option('--format <format>', 'json or md', 'json')
    .action(async (id: string, opts: { output?: string; format?: string }, cmd: Command) => {
      const { sessionsExport } = await import('./commands/sessions.js');
      await sessionsExport(globals(cmd), id, opts);
    });
  sessions
    .command('delete')
    .description('delete sessions with their transcripts (an active one only while no gateway runs)')
    .argument('<ids...>', 'session ids')
    .action(async (ids: string[], _opts, cmd: Command) => {
      const { sessionsDelete } = await import('./commands/sessions.js');
      await sessionsDelete(globals(cmd), ids);
    });
  sessions
    .command('prune')
    .description('delete the transcripts of sessions idle longer than N days (hermes state prune)')
    .option('--days <n>', 'idle for more than N days (default: state.retention_days)')
    .option('--dry-run', 'only say what would be deleted')
    .action(async (opts: { days?: string; dryRun?: boolean }, cmd: Command) => {
      const { statePrune } = await import('./commands/state.js');
      await statePrune(globals(cmd), opts);
    });
}

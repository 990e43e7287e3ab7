/**
 * `hermes state postgres start|stop|status|url`: a PostgreSQL server for this HERMES_HOME without
 * Docker (postgres/local-cluster.ts), for `state.backend: postgres` on one machine or for trying a
 * cluster of gateways. docs/state.md "Without Docker".
 */
import { EXIT } from '@hermes/protocol';
import type { Command } from 'commander';
import { CliExit } from '../cli-error.js';
import type { GlobalOptions } from '../main.js';
import { findPostgresBinaries, NO_BINARIES } from '../postgres/local-binaries.js';
import {
  type ClusterRecord,
  DEFAULT_PORT,
  initCluster,
  isRunning,
  planRecord,
  portFree,
  readRecord,
  recordPath,
  startCluster,
  stopCluster,
  urlOf,
} from '../postgres/local-cluster.js';
import { loadSettings } from '../settings.js';

const say = (line: string) => process.stdout.write(`${line}\n`);

function parsePort(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) {
    throw new CliExit(EXIT.USAGE, `--port must be a TCP port from 1 to 65535 (got ${JSON.stringify(text)})`);
  }
  return port;
}

function howToUse(record: ClusterRecord): void {
  say('To run Hermes on it, put in config.yaml:');
  say('  state:\n    backend: postgres');
  say('and in .env:');
  say(`  HERMES_DATABASE_URL=${urlOf(record)}`);
  say('(hermes state copy --to "$(hermes state postgres url)" copies state.db into it first.)');
}

async function start(options: GlobalOptions, opts: { port?: string }): Promise<void> {
  const { home } = loadSettings(options);
  const wanted = parsePort(opts.port);
  const known = readRecord(home);
  if (known && (await isRunning(known))) {
    say(`PostgreSQL for ${home} is already running on 127.0.0.1:${known.port}.`);
    if (wanted !== undefined && wanted !== known.port) {
      say(`(--port ${wanted} not applied: hermes state postgres stop, then start --port ${wanted}, moves it.)`);
    }
    return;
  }
  const binaries = findPostgresBinaries();
  if (!binaries && !known) throw new CliExit(EXIT.ERROR, `hermes state postgres start: ${NO_BINARIES}`);
  const port = wanted ?? known?.port ?? DEFAULT_PORT;
  if (!(await portFree(port))) {
    throw new CliExit(
      EXIT.ERROR,
      `port ${port} on 127.0.0.1 is in use (another PostgreSQL?): choose another with --port, e.g. hermes state postgres start --port ${port + 1}`,
    );
  }
  const record = known ? { ...known, port } : planRecord(home, binaries as NonNullable<typeof binaries>, port);
  try {
    await initCluster(home, record);
    await startCluster(home, record);
  } catch (err) {
    throw new CliExit(EXIT.ERROR, `hermes state postgres start: ${err instanceof Error ? err.message : String(err)}`);
  }
  say(
    `PostgreSQL is running on 127.0.0.1:${port} (data in ${record.dir}${record.runAs ? `, run as ${record.runAs.name}` : ''}).`,
  );
  howToUse(record);
}

function needRecord(home: string): ClusterRecord {
  const record = readRecord(home);
  if (!record) {
    throw new CliExit(
      EXIT.ERROR,
      `no PostgreSQL was started for ${home} (${recordPath(home)} is missing): run hermes state postgres start`,
    );
  }
  return record;
}

async function stop(options: GlobalOptions): Promise<void> {
  const { home } = loadSettings(options);
  const record = readRecord(home);
  if (!record || !(await isRunning(record))) {
    say(`PostgreSQL for ${home} is not running.`);
    return;
  }
  try {
    await stopCluster(record);
  } catch (err) {
    throw new CliExit(EXIT.ERROR, `hermes state postgres stop: ${err instanceof Error ? err.message : String(err)}`);
  }
  say(`PostgreSQL on 127.0.0.1:${record.port} stopped.`);
}

async function status(options: GlobalOptions, opts: { json?: boolean }): Promise<void> {
  const { home } = loadSettings(options);
  const record = readRecord(home);
  const running = record ? await isRunning(record) : false;
  if (opts.json) {
    const fields = record ? { port: record.port, data_dir: record.dir, run_as: record.runAs?.name ?? null } : {};
    say(JSON.stringify({ running, initialized: record !== null, ...fields }));
    return;
  }
  if (!record) say(`No PostgreSQL was started for ${home}: hermes state postgres start makes one.`);
  else
    say(
      `PostgreSQL for ${home}: ${running ? 'running' : 'stopped'} on 127.0.0.1:${record.port} (data in ${record.dir}).`,
    );
}

export function addLocalPostgresCommands(state: Command, globals: (cmd: Command) => GlobalOptions): void {
  const pgCmd = state
    .command('postgres')
    .description('a PostgreSQL server for this HERMES_HOME without Docker (127.0.0.1 only): start, stop, status, url');
  pgCmd
    .command('start')
    .description('initialise (first time) and start it; prints the HERMES_DATABASE_URL to use')
    .option('--port <port>', `TCP port on 127.0.0.1 (default ${DEFAULT_PORT}, then the one it last used)`)
    .action(async (opts: { port?: string }, cmd: Command) => start(globals(cmd), opts));
  pgCmd
    .command('stop')
    .description('stop it (fast shutdown)')
    .action(async (_opts, cmd: Command) => stop(globals(cmd)));
  pgCmd
    .command('status')
    .description('whether it runs, its port and data folder')
    .option('--json', 'print JSON: {running, initialized, port, data_dir, run_as}')
    // the program's own --json is the one commander fills in; the subcommand's documents it
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const options = globals(cmd);
      await status(options, { json: opts.json === true || options.json === true });
    });
  pgCmd
    .command('url')
    .description('print its URL (for HERMES_DATABASE_URL or "$(hermes state postgres url)")')
    .action(async (_opts, cmd: Command) => {
      say(urlOf(needRecord(loadSettings(globals(cmd)).home)));
    });
}

/**
 * `hermes backup [--output FILE]`: one .tar.gz of HERMES_HOME as it is now, safe to take while the
 * gateway runs. state.db goes in as a consistent copy (SQLite's online backup API); its -wal, -shm
 * and -journal files, `checkpoints/`, `backups/` (earlier backups), `cache/` (downloaded media,
 * fetched again when needed) and lock files stay out. On PostgreSQL (`state.backend: postgres`)
 * the database goes in as `state.sql` from `pg_dump` where it is installed; where it is not, the
 * files are still archived and the command exits 1 saying the database is missing. The archive
 * holds `.env` (secrets): it is written readable by its owner only.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { EXIT } from '@hermes/protocol';
import { backupSqliteFile } from '@hermes/store';
import { create } from 'tar';
import { CliExit } from '../cli-error.js';
import { envUrl } from '../database-url.js';
import type { GlobalOptions } from '../main.js';
import { loadSettings } from '../settings.js';

/** Top-level entries of HERMES_HOME never archived. */
const LEFT_OUT_TOP = new Set(['backups', 'checkpoints', 'cache', 'gateway.lock', 'locks']);
/** Files never archived wherever they are: the live database's side files and locks. */
const LEFT_OUT_FILE = /(?:-wal|-shm|-journal|\.lock)$/;

export interface BackupOptions {
  output?: string;
}

/** Whether `path` (relative to HERMES_HOME) goes into the archive as a file copy. */
export function archived(path: string, isTopLevel: boolean): boolean {
  if (isTopLevel && LEFT_OUT_TOP.has(path)) return false;
  if (path === 'state.db') return false; // copied through the backup API instead
  return !LEFT_OUT_FILE.test(path);
}

/** HERMES_HOME's files and folders to copy, relative, with what is left out skipped. */
function homeEntries(home: string, output: string): string[] {
  return readdirSync(home).filter((name) => archived(name, true) && resolve(home, name) !== output);
}

function timestamp(now: Date): string {
  return now
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/[:]/g, '-');
}

export async function backupCommand(opts: BackupOptions, options: GlobalOptions): Promise<void> {
  const { home, paths, config, env } = loadSettings(options);
  const output = resolve(opts.output ?? join(home, 'backups', `hermes-backup-${timestamp(new Date())}.tar.gz`));
  mkdirSync(dirname(output), { recursive: true, mode: 0o700 });
  const stage = mkdtempSync(join(tmpdir(), 'hermes-backup-'));
  let missing: string | null = null;
  try {
    for (const name of homeEntries(home, output)) {
      cpSync(join(home, name), join(stage, name), {
        recursive: true,
        filter: (from) => {
          const rel = relative(home, from);
          if (from === output) return false;
          const stat = statSync(from, { throwIfNoEntry: false });
          if (stat === undefined || (!stat.isFile() && !stat.isDirectory())) return false;
          return rel === name || archived(rel, false);
        },
      });
    }
    let database: string;
    if (config.state.backend === 'sqlite') {
      if (existsSync(paths.stateDb)) {
        const { pages } = await backupSqliteFile(paths.stateDb, join(stage, 'state.db'));
        database = `state.db (${pages} pages, online backup)`;
      } else database = 'no state.db yet';
    } else {
      // the password goes to pg_dump in its environment, never on its command line (the process list)
      const url = new URL(envUrl(env, 'state.backend postgres'));
      const password = decodeURIComponent(url.password);
      url.password = '';
      const dump = spawnSync('pg_dump', ['--no-owner', '--file', join(stage, 'state.sql'), url.toString()], {
        stdio: ['ignore', 'ignore', 'pipe'],
        encoding: 'utf8',
        env: { ...process.env, ...(password === '' ? {} : { PGPASSWORD: password }) },
      });
      if (dump.error || dump.status !== 0) {
        const why = dump.error ? 'pg_dump is not installed' : `pg_dump failed: ${dump.stderr.trim().split('\n')[0]}`;
        missing = `the PostgreSQL database is NOT in this backup (${why}); the files are`;
        database = 'PostgreSQL: missing';
      } else database = 'state.sql (pg_dump of PostgreSQL)';
    }
    const entries = readdirSync(stage);
    // an empty HERMES_HOME (nothing written yet) is still a valid, empty archive
    await create({ gzip: true, file: output, cwd: stage, portable: true }, entries.length > 0 ? entries : ['.']);
    chmodSync(output, 0o600);
    const size = statSync(output).size;
    process.stdout.write(`backup: ${output} (${(size / 1024).toFixed(1)} KB; ${database})\n`);
    process.stdout.write(
      'left out: state.db -wal/-shm/-journal, checkpoints/, backups/, cache/ and lock files; restore with tar -xzf into an empty HERMES_HOME (it holds .env: keep it private)\n',
    );
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
  if (missing !== null) throw new CliExit(EXIT.ERROR, `hermes backup: ${missing} in ${output}`);
}

/**
 * `hermes state prune|vacuum`: retention on the state backend (state.db, or PostgreSQL with
 * state.backend postgres) and compaction of HERMES_HOME/state.db (SQLite only).
 */
import { statSync } from 'node:fs';
import { EXIT } from '@hermes/protocol';
import { openStore } from '@hermes/store';
import { CliExit } from '../cli-error.js';
import type { GlobalOptions } from '../main.js';
import { DAY_MS, describePrune } from '../retention.js';
import { liveOwner, lockPath } from '../service/pid-lock.js';
import { loadSettings } from '../settings.js';
import { withStateStore } from '../state-store.js';

function parseDays(text: string): number {
  const days = Number(text);
  if (text.trim() === '' || !Number.isFinite(days) || days <= 0) {
    throw new CliExit(EXIT.USAGE, `--days must be a number of days greater than 0 (got ${JSON.stringify(text)})`);
  }
  return days;
}

/** Deletes the transcripts of sessions idle longer than --days (else state.retention_days) and finished rows. */
export async function statePrune(options: GlobalOptions, opts: { days?: string; dryRun?: boolean }): Promise<void> {
  const settings = loadSettings(options);
  const { config } = settings;
  const days = opts.days !== undefined ? parseDays(opts.days) : config.state.retention_days;
  if (days === undefined) {
    throw new CliExit(
      EXIT.USAGE,
      'state prune needs --days N, or state.retention_days in config.yaml (hermes config set state.retention_days 90)',
    );
  }
  const counts = await withStateStore(settings, (store) =>
    store.pruner.prune(Date.now() - days * DAY_MS, { dryRun: opts.dryRun === true }),
  );
  const verb = opts.dryRun ? 'would delete' : 'deleted';
  process.stdout.write(`state prune (idle > ${days} days): ${verb} ${describePrune(counts)}\n`);
}

function sizeOf(path: string): number {
  let total = 0;
  for (const file of [path, `${path}-wal`]) {
    try {
      total += statSync(file).size;
    } catch {
      // no WAL file: nothing to add
    }
  }
  return total;
}

const mib = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(2)} MiB`;

/**
 * Rewrites state.db without its free pages (SQLite only: refused on postgres). Refused while a gateway runs on this home: VACUUM
 * holds the write lock for as long as it copies the database, and the gateway's writes would time
 * out (busy_timeout 5 s) on a large file.
 */
export async function stateVacuum(options: GlobalOptions): Promise<void> {
  const { home, paths, config } = loadSettings(options);
  if (config.state.backend === 'postgres') {
    throw new CliExit(
      EXIT.USAGE,
      'state vacuum compacts HERMES_HOME/state.db (SQLite); state.backend is postgres: run VACUUM on the database ' +
        'with psql instead (PostgreSQL autovacuum reclaims space on its own)',
    );
  }
  const running = liveOwner(lockPath(home));
  if (running) {
    throw new CliExit(
      EXIT.ERROR,
      `a gateway is running for ${home} (pid ${running.pid}): VACUUM would block its writes; ` +
        'stop it first (hermes gateway stop), vacuum, then start it again',
    );
  }
  const store = openStore(paths.stateDb, { backgroundCheckpoints: false });
  try {
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    const before = sizeOf(paths.stateDb);
    store.db.exec('VACUUM');
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    const after = sizeOf(paths.stateDb);
    process.stdout.write(`state vacuum: ${paths.stateDb} ${mib(before)} -> ${mib(after)}\n`);
  } finally {
    store.close();
  }
}

/**
 * `hermes state migrate` (the configured backend to the newest schema) and `hermes state copy`
 * (state.db into PostgreSQL). A database URL is only ever printed with its password masked, and
 * an error message carrying the password has it replaced before it is shown.
 */
import { existsSync } from 'node:fs';
import { EXIT } from '@hermes/protocol';
import { copySqliteToPg, MIGRATIONS, maskDatabaseUrl, openPgStore, openStore } from '@hermes/store';
import { CliExit } from '../cli-error.js';
import { checkedUrl, envUrl, scrubbed } from '../database-url.js';
import type { GlobalOptions } from '../main.js';
import { liveOwner, lockPath } from '../service/pid-lock.js';
import { loadSettings } from '../settings.js';

/** Applies the pending migrations to the configured backend and prints the version it is at. */
export async function stateMigrate(options: GlobalOptions): Promise<void> {
  const { config, paths, env } = loadSettings(options);
  if (config.state.backend === 'sqlite') {
    const store = openStore(paths.stateDb, { backgroundCheckpoints: false });
    try {
      process.stdout.write(`state migrate: ${paths.stateDb} at schema version ${store.schemaVersion()}\n`);
    } finally {
      store.close();
    }
    return;
  }
  const url = envUrl(env, 'state.backend postgres');
  try {
    const store = await openPgStore(url, { maxConnections: 2 });
    try {
      const version = await store.schemaVersion();
      process.stdout.write(`state migrate: ${store.location} at schema version ${version} of ${MIGRATIONS.length}\n`);
    } finally {
      await store.close();
    }
  } catch (error) {
    throw scrubbed(error, url);
  }
}

/** Copies state.db into PostgreSQL (refusing a non-empty target unless --force) and prints each table's counts. */
export async function stateCopy(options: GlobalOptions, opts: { to?: string; force?: boolean }): Promise<void> {
  const { home, paths, env } = loadSettings(options);
  const url = opts.to === undefined ? envUrl(env, 'state copy without --to') : checkedUrl(opts.to, '--to');
  const running = liveOwner(lockPath(home));
  if (running) {
    throw new CliExit(
      EXIT.ERROR,
      `a gateway is running for ${home} (pid ${running.pid}): rows it writes during the copy would be missed; ` +
        'stop it first (hermes gateway stop), copy, then start it on the new backend',
    );
  }
  if (!existsSync(paths.stateDb)) throw new CliExit(EXIT.ERROR, `nothing to copy: ${paths.stateDb} does not exist`);
  const sqlite = openStore(paths.stateDb, { backgroundCheckpoints: false });
  const target = maskDatabaseUrl(url);
  try {
    const pg = await openPgStore(url, { maxConnections: 2 });
    try {
      const result = await copySqliteToPg(sqlite.db, pg.pool, { force: opts.force === true });
      const out = process.stdout;
      out.write(`state copy: ${paths.stateDb} -> ${target}${result.replaced ? ' (its earlier rows replaced)' : ''}\n`);
      const width = Math.max(...result.tables.map((t) => t.table.length));
      out.write(`  ${'table'.padEnd(width)}  ${'sqlite'.padStart(8)}  ${'postgres'.padStart(8)}\n`);
      for (const t of result.tables) {
        out.write(`  ${t.table.padEnd(width)}  ${String(t.sqlite).padStart(8)}  ${String(t.postgres).padStart(8)}\n`);
      }
      const rows = result.tables.reduce((sum, t) => sum + t.postgres, 0);
      out.write(`copied ${rows} rows in ${result.tables.length} tables; every count matches\n`);
    } finally {
      await pg.close();
    }
  } catch (error) {
    if (error instanceof CliExit) throw error;
    throw scrubbed(error, url);
  } finally {
    sqlite.close();
  }
}

/**
 * The state store of `state.backend`: HERMES_HOME/state.db (`sqlite`, the default) or the
 * PostgreSQL database at HERMES_DATABASE_URL (`postgres`). Every command that reads or writes
 * sessions, transcripts, pairing, cron jobs or memory snapshots opens it here, so all of them
 * run on the same backend.
 */
import { type AsyncStore, asyncSqliteStore, openPgStore, openStore, type Store } from '@hermes/store';
import { envUrl, scrubbed } from './database-url.js';
import type { Settings } from './settings.js';

export interface StateStore {
  /** the configured backend's store, with the async repositories of both backends */
  store: AsyncStore;
  /** the synchronous SQLite store behind it (the gateway's group commit, VACUUM); null on postgres */
  sqlite: Store | null;
}

export interface OpenStateOptions {
  /** applied to transcript and summary text before it is stored */
  redact?: (text: string) => string;
  /** SQLite: checkpoint the WAL in the background (default true; short commands pass false) */
  backgroundCheckpoints?: boolean;
  /** PostgreSQL: most pooled connections (default 10; a short command needs 2) */
  maxConnections?: number;
}

/**
 * Opens the configured backend. On postgres a missing or malformed HERMES_DATABASE_URL exits 2
 * naming the variable; a database it cannot reach exits 1 with the URL's password masked.
 */
export async function openStateStore(
  settings: Pick<Settings, 'config' | 'paths' | 'env'>,
  options: OpenStateOptions = {},
): Promise<StateStore> {
  const { config, paths, env } = settings;
  if (config.state.backend === 'postgres') {
    const url = envUrl(env, 'state.backend postgres');
    try {
      const store = await openPgStore(url, {
        ...(options.redact ? { redact: options.redact } : {}),
        ...(options.maxConnections !== undefined ? { maxConnections: options.maxConnections } : {}),
      });
      return { store, sqlite: null };
    } catch (error) {
      throw scrubbed(error, url);
    }
  }
  const sqlite = openStore(paths.stateDb, {
    ...(options.redact ? { redact: options.redact } : {}),
    ...(options.backgroundCheckpoints === false ? { backgroundCheckpoints: false } : {}),
  });
  return { store: asyncSqliteStore(sqlite), sqlite };
}

/** Runs `fn` on the configured backend (a short command's: 2 connections, no background checkpoints), then closes it. */
export async function withStateStore<T>(
  settings: Pick<Settings, 'config' | 'paths' | 'env'>,
  fn: (store: AsyncStore, sqlite: Store | null) => Promise<T>,
): Promise<T> {
  const { store, sqlite } = await openStateStore(settings, { backgroundCheckpoints: false, maxConnections: 2 });
  try {
    return await fn(store, sqlite);
  } finally {
    await store.close();
  }
}

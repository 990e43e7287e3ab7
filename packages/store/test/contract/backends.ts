/**
 * The store contract suite's backends: every scenario file calls `forEachBackend` and runs the same
 * tests against SQLite (the async adapter over a fresh state.db) and PostgreSQL (a fresh database on
 * the test file's server). PostgreSQL is skipped, saying why, only when no server binary can run.
 */
import { join } from 'node:path';
import { type AsyncStore, asyncSqliteStore, openPgStore, openStore, type RandomInt } from '@hermes/store';
import { afterEach, describe } from 'vitest';
import { postgresUnavailableReason, usePostgres } from '../../../../test/helpers/postgres.js';
import { useTempDirs } from '../temp-dir.js';

export interface ContractOptions {
  now?: () => number;
  randomInt?: RandomInt;
  redact?: (text: string) => string;
}

export type OpenContractStore = (options?: ContractOptions) => Promise<AsyncStore>;

export function forEachBackend(suite: (open: OpenContractStore, backend: 'sqlite' | 'postgres') => void): void {
  describe('sqlite', () => {
    const tempDir = useTempDirs();
    const stores: AsyncStore[] = [];
    afterEach(async () => {
      for (const store of stores.splice(0)) await store.close();
    });
    suite(async (options = {}) => {
      const store = asyncSqliteStore(
        openStore(join(tempDir(), 'state.db'), { ...options, backgroundCheckpoints: false }),
      );
      stores.push(store);
      return store;
    }, 'sqlite');
  });

  describe.skipIf(postgresUnavailableReason() !== null)('postgres', () => {
    const pg = usePostgres();
    const stores: AsyncStore[] = [];
    afterEach(async () => {
      for (const store of stores.splice(0)) await store.close();
    });
    suite(async (options = {}) => {
      const store = await openPgStore(await pg.server.newDatabase('contract'), { ...options, maxConnections: 4 });
      stores.push(store);
      return store;
    }, 'postgres');
  });
}

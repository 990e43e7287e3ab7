import { join } from 'node:path';
import { openStore, type Store, type StoreOptions } from '@hermes/store';
import { afterEach } from 'vitest';
import { useTempDirs } from './temp-dir.js';

/** Registers cleanup and returns `open(options?, path?)`: a store on a fresh state.db (or `path`), closed after each test. */
export function useStores(): { open: (options?: StoreOptions, path?: string) => Store; freshPath: () => string } {
  const tempDir = useTempDirs();
  const stores: Store[] = [];
  afterEach(() => {
    for (const store of stores.splice(0)) store.close();
  });
  const freshPath = () => join(tempDir(), 'state.db');
  return {
    freshPath,
    open(options = {}, path = freshPath()) {
      const store = openStore(path, options);
      stores.push(store);
      return store;
    },
  };
}

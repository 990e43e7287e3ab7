// A setup file (vitest.config.ts `setupFiles`): it runs before every test file, also when one
// worker runs many files in one process (`isolate: false`, where a helper's module-level hook would
// register for the first file only), so what must hold per file is registered here.
import { afterAll } from 'vitest';
import { removeTempHomes } from './run-hermes.js';
import { killStrayGateways } from './spawn-gateway.js';

// after hooks run last-registered first: the file's own teardown (gateways stopped) comes before these
afterAll(() => {
  killStrayGateways();
  removeTempHomes();
});

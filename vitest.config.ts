import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const pkg = (name: string) => fileURLToPath(new URL(`./packages/${name}/src/index.ts`, import.meta.url));

export default defineConfig({
  resolve: {
    // Unit tests run against sources; end-to-end tests spawn the built CLI.
    alias: {
      '@hermes/protocol': pkg('protocol'),
      '@hermes/config': pkg('config'),
      '@hermes/logging': pkg('logging'),
      '@hermes/store': pkg('store'),
      '@hermes/plugins': pkg('plugins'),
      '@hermes/agent': pkg('agent'),
      '@hermes/plugin-sdk': pkg('plugin-sdk'),
      '@hermes/gateway': pkg('gateway'),
    },
  },
  test: {
    include: [
      'plugins/**/test/**/*.test.ts',
      'packages/*/test/**/*.test.ts',
      'apps/*/test/**/*.test.ts',
      'test/**/*.test.ts',
    ],
    // the chaos suite runs alone (npm run test:chaos): minutes of faults, not part of npm test
    exclude: ['**/node_modules/**', '**/dist/**', 'test/chaos/**'],
    // a guard against hangs, not a speed check (each wait in a test has its own timeout naming what it
    // waited for): with two files at once on two cores, an end-to-end test that takes 10 s on an idle
    // machine may take three times that, and a hook that stops a gateway must not be cut off first
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // two test files at once: every file has its own fakes on port 0, HERMES_HOME, lock folder and
    // temp paths, and its tests wait on events and conditions (test/helpers/wait-for.ts, 30 s by
    // default), never on fixed sleeps. A whole run at 2 workers passed on this 2-core machine while
    // it also ran the bad-input and chaos suites and two builds (335 files, 2,561 tests, 912 s;
    // one at a time took 1,100-1,500 s).
    maxWorkers: 2,
  },
});

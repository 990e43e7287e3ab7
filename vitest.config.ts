import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const pkg = (name: string) => fileURLToPath(new URL(`./packages/${name}/src/index.ts`, import.meta.url));

const INCLUDE = [
  'plugins/**/test/**/*.test.ts',
  'packages/*/test/**/*.test.ts',
  'apps/*/test/**/*.test.ts',
  'test/**/*.test.ts',
];
// the chaos suite runs alone (npm run test:chaos): minutes of faults, not part of npm test
const EXCLUDE = ['**/node_modules/**', '**/dist/**', 'test/chaos/**'];
/**
 * Files run one at a time after the others: a hook spinning a core for 20 s while /health must
 * answer within 1 s (extension-isolation), slow clients holding every connection while /health must
 * (http-limits). The hung-model file (a minute of waiting on 50 s timeouts, bound < 60 s) runs with
 * the others: its processes sleep, and timers fire on time on a busy machine.
 */
const ALONE = ['test/security/extension-isolation.test.ts', 'test/security/http-limits.test.ts'];

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
    // a guard against hangs, not a speed check (each wait in a test has its own timeout naming what it
    // waited for): with two files at once on two cores, an end-to-end test that takes 10 s on an idle
    // machine may take three times that, and a hook that stops a gateway must not be cut off first
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // each file in a fresh process (isolate, vitest's default). Running file after file in one
    // process (isolate: false) took the suite from ~1,000 to ~880 s here, but a clean-clone run
    // once failed the background-checkpoint test with it (its worker never started; not reproduced
    // alone): kept off until that is understood. What must hold per file is in the setup file.
    setupFiles: ['test/helpers/per-file.ts'],
    projects: [
      {
        extends: true,
        // two test files at once: every file has its own fakes on port 0, HERMES_HOME, lock folder
        // and temp paths, and its tests wait on events and conditions (test/helpers/wait-for.ts, 30 s
        // by default), never on fixed sleeps
        test: { name: 'parallel', include: INCLUDE, exclude: [...EXCLUDE, ...ALONE], maxWorkers: 2 },
      },
      {
        extends: true,
        // then, one at a time, the files that hold a core on purpose or assert a wall-clock bound
        test: { name: 'alone', include: ALONE, exclude: EXCLUDE, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});

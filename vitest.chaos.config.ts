// The chaos suite alone (npm run test:chaos): minutes of faults against real gateway processes,
// so it is kept out of `npm test` (vitest.config.ts excludes test/chaos) and runs here by itself.
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

export default defineConfig({
  resolve: base.resolve,
  test: {
    include: ['test/chaos/**/*.test.ts'],
    testTimeout: 900_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // one run at a time: the suite measures one gateway under load on a small machine
    fileParallelism: false,
  },
});

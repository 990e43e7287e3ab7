// A setup file (vitest.config.ts `setupFiles`): it runs before every test file, including each of
// the many files one worker runs in turn (test files share their worker's process and module cache,
// `isolate: false`), so what must hold per file is registered here, not at a helper's import.
import { afterAll } from 'vitest';
import { killStrayGateways } from './spawn-gateway.js';

afterAll(() => killStrayGateways());

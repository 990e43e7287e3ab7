import { readFileSync } from 'node:fs';
import { APP_PACKAGE_JSON } from './app-paths.js';

/** The CLI's version, from its package.json. */
export const VERSION: string = (JSON.parse(readFileSync(APP_PACKAGE_JSON, 'utf8')) as { version: string }).version;

/**
 * Where the CLI's own files are. The CLI runs from its build (`dist/`, one module per source file)
 * or from its bundle (`dist/bundle/`, see bundle.mjs), at different depths, so every path is taken
 * from the app's folder, the nearest one above this module holding a package.json: apps/hermes.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function appRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`hermes: no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
  return dir;
}

/** apps/hermes: its package.json and bin/ */
export const APP_ROOT = appRoot();
/** the package.json the version is read from */
export const APP_PACKAGE_JSON = join(APP_ROOT, 'package.json');
/** the launcher a service runs (`hermes gateway start`, the systemd unit) */
export const HERMES_BIN = join(APP_ROOT, 'bin', 'hermes.js');
/** the repository's bundled plugins folder (next to apps/) */
export const BUNDLED_PLUGINS_DIR = join(APP_ROOT, '..', '..', 'plugins');
/** the repository's example gateway hooks (`hermes hooks install`) */
export const EXAMPLE_HOOKS_DIR = join(APP_ROOT, '..', '..', 'hooks');
/** the repository a git checkout of Hermes is (apps/hermes's grandparent) */
export const REPO_ROOT = join(APP_ROOT, '..', '..');

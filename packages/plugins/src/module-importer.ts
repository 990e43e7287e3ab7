/** Imports TypeScript or JavaScript files without a build step (jiti), with module aliases. */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

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

/**
 * An importer for plugin and hook code; `aliases` map bare specifiers (e.g. `@hermes/plugin-sdk`)
 * to files. Transforms go through jiti's own transform and file cache (keyed by the source); the
 * specifiers are pointed at the files that exist after the cache, on every load, so a cached
 * transform never refers to a file that has since been renamed.
 */
export async function createModuleImporter(aliases: Record<string, string> = {}): Promise<ModuleImporter> {
  const { createJiti } = await import('jiti');
  // jiti's transform with its file cache; used only through .transform
  const transformer = createJiti(import.meta.url);
  const jiti = createJiti(import.meta.url, {
    alias: aliases,
    fsCache: false,
    transform: (options) => {
      const code = transformer.transform(options);
      return { code: options.filename ? pointImportsAtTypeScript(code, options.filename) : code };
    },
  });
  return (file) => jiti.import(file);
}

/**
 * jiti's `transform` hook done by esbuild: TypeScript (and ES module JavaScript) into the CommonJS
 * function body jiti evaluates, `(async function (exports, require, module, __filename, __dirname,
 * jitiImport, jitiESMResolve) { … })`. esbuild's `transformSync` costs a few ms a file where jiti's
 * babel costs ~30 ms (and ~100 ms to load): the first start after an install transforms every plugin.
 * What esbuild cannot give as CommonJS (top-level await, a bare `import.meta`) or an esbuild that
 * cannot start goes to jiti's babel transform for that file (`fallback`), reported through `debug`.
 */
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TransformOptions, TransformResult } from 'jiti';
import { rewriteModuleCalls } from './module-calls.js';
import type { TransformCache } from './transform-cache.js';

type Esbuild = typeof import('esbuild');

export interface EsbuildTransformOptions {
  /** jiti's babel transform, for what esbuild cannot do */
  fallback(options: TransformOptions): TransformResult;
  /** why a file went to the fallback */
  debug?(message: string): void;
  /** esbuild's service stops after this long without a transform (its worker thread and process) */
  idleStopMs?: number;
  /** transforms kept between starts (transform-cache.ts) */
  cache?: TransformCache;
}

let esbuild: Esbuild | null = null;
let idleTimer: NodeJS.Timeout | null = null;

/** esbuild's JavaScript API, required on the first transform (a warm cache never loads it). */
function loadEsbuild(): Esbuild {
  esbuild ??= createRequire(import.meta.url)('esbuild') as Esbuild;
  return esbuild;
}

/**
 * esbuild's synchronous API keeps a worker thread and an esbuild process; both go once the burst of
 * transforms of a start is over (a later transform starts them again).
 */
function stopWhenIdle(ms: number): void {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    idleTimer = null;
    void esbuild?.stop();
  }, ms);
  idleTimer.unref();
}

/** what esbuild says when the code needs an ES module (falls back to babel) */
const NEEDS_ESM = /top-level await|not supported with the "cjs" output format|"import\.meta" is not available/i;

interface EsbuildMessage {
  text: string;
  location: { file: string; line: number; column: number } | null;
}

function messagesOf(err: unknown): EsbuildMessage[] | null {
  const errors = (err as { errors?: unknown } | null)?.errors;
  return Array.isArray(errors) && errors.length > 0 ? (errors as EsbuildMessage[]) : null;
}

function loaderFor(options: TransformOptions): 'ts' | 'tsx' | 'js' | 'jsx' {
  const x = /\.[cm]?[jt]sx$/.test(options.filename ?? '');
  if (options.ts) return x ? 'tsx' : 'ts';
  return x && options.jsx ? 'jsx' : 'js';
}

/** jiti's file-path values of `import.meta` (as its babel transform inlines them) */
function importMetaDefines(filename: string | undefined): Record<string, string> {
  const defines: Record<string, string> = {
    'import.meta.resolve': 'jitiESMResolve',
    'import.meta.env': 'process.env',
  };
  if (filename) {
    defines['import.meta.url'] = JSON.stringify(pathToFileURL(filename).href);
    defines['import.meta.dirname'] = JSON.stringify(dirname(filename));
    defines['import.meta.filename'] = JSON.stringify(filename);
  }
  return defines;
}

/** a parse error the way jiti reports its babel's: jiti throws `ParseError: message \n file:line:column` */
function parseError(options: TransformOptions, message: EsbuildMessage, err: unknown): TransformResult {
  const report = {
    filename: message.location?.file || options.filename,
    line: message.location?.line ?? 0,
    column: message.location?.column ?? 0,
    code: 'ParseError',
    message: message.text,
  };
  return { error: err, code: `exports.__JITI_ERROR__ = ${JSON.stringify(report)}` };
}

type EsbuildOptions = Parameters<Esbuild['transformSync']>[1];

function esbuildOptions(options: TransformOptions): EsbuildOptions {
  return {
    loader: loaderFor(options),
    format: 'cjs',
    platform: 'node',
    target: `node${process.versions.node}`,
    sourcefile: options.filename,
    define: importMetaDefines(options.filename),
    // legacy decorators, as jiti's babel transform has them
    tsconfigRaw: { compilerOptions: { experimentalDecorators: true } },
    logLevel: 'silent',
  };
}

/** esbuild's output made jiti's (module-calls.ts), or why it needs the fallback */
function finish(
  options: TransformOptions,
  code: string,
  warnings: EsbuildMessage[],
): { code: string } | { esm: string } {
  const esm = warnings.find((m) => NEEDS_ESM.test(m.text));
  if (esm) return { esm: esm.text };
  // every require() esbuild wrote is an import's only when the source calls none itself
  const awaitImports = options.async === true && !/\brequire\b/.test(options.source);
  return { code: rewriteModuleCalls(code, { awaitImports }) };
}

export interface EsbuildTransform {
  /** jiti's `transform` option: from the cache, else esbuild (or the fallback), then cached */
  transform(options: TransformOptions): TransformResult;
  /**
   * Transforms a file jiti is about to transform, through esbuild's asynchronous API, into the
   * cache; the synchronous one (a worker thread and its own esbuild process) then starts only for
   * the files this one does not see (a plugin's relative imports). Anything but a clean transform
   * is left to `transform`.
   */
  prepare(options: TransformOptions): Promise<void>;
}

/** The transform for jiti's `transform` option, with its cache. */
export function createEsbuildTransform(o: EsbuildTransformOptions): EsbuildTransform {
  const idleStopMs = o.idleStopMs ?? 2_000;
  const cache = o.cache ?? { get: () => null, set: () => {} };
  const fallback = (options: TransformOptions, why: string): TransformResult => {
    o.debug?.(`${options.filename ?? 'code'}: babel transform (${why})`);
    const result = o.fallback(options);
    if (!result.error && !result.code.includes('__JITI_ERROR__')) cache.set(options, result.code);
    return result;
  };
  // what prepare() found or made, for the transform that follows it (no second read of the cache)
  const prepared = new Map<string, { source: string; async: boolean; code: string }>();
  const transform = (options: TransformOptions): TransformResult => {
    const ready = options.filename ? prepared.get(options.filename) : undefined;
    if (ready && options.filename) {
      prepared.delete(options.filename);
      if (ready.source === options.source && ready.async === (options.async === true)) return { code: ready.code };
    }
    const cached = cache.get(options);
    if (cached !== null) return { code: cached };
    let done: { code: string } | { esm: string };
    try {
      const result = loadEsbuild().transformSync(options.source, esbuildOptions(options));
      done = finish(options, result.code, result.warnings);
    } catch (err) {
      const messages = messagesOf(err);
      if (!messages) return fallback(options, `esbuild failed: ${err instanceof Error ? err.message : String(err)}`);
      const esm = messages.find((m) => NEEDS_ESM.test(m.text));
      if (esm) return fallback(options, esm.text);
      return parseError(options, messages[0] as EsbuildMessage, err);
    } finally {
      stopWhenIdle(idleStopMs);
    }
    if ('esm' in done) return fallback(options, done.esm);
    cache.set(options, done.code);
    return done;
  };
  const prepare = async (options: TransformOptions): Promise<void> => {
    const keep = (code: string) => {
      if (options.filename)
        prepared.set(options.filename, { source: options.source, async: options.async === true, code });
    };
    const cached = cache.get(options);
    if (cached !== null) return keep(cached);
    try {
      const result = await loadEsbuild().transform(options.source, esbuildOptions(options));
      const done = finish(options, result.code, result.warnings);
      if ('code' in done) {
        cache.set(options, done.code);
        keep(done.code);
      }
    } catch {
      // transform() says what is wrong
    } finally {
      stopWhenIdle(idleStopMs);
    }
  };
  return { transform, prepare };
}

// Counting the modules `hermes gateway run` loads: a preload (`--require`) that notes each CommonJS
// module the main thread compiles, registers a load hook noting each ES module, and marks the moments the
// gateway says it listens (healthy) and that its platforms have started. The hooks slow the loading
// down, so the footprint bench counts in a start of its own, never in a timed one.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface ModuleCount {
  /** ES modules loaded (node: builtins, JSON and the CommonJS files below not counted) */
  es: number;
  /** CommonJS modules compiled (required, or imported from an ES module) */
  cjs: number;
}

export interface ModuleCounter {
  /** the node options of the counted process */
  execArgv: string[];
  /**
   * What it had loaded when it said it listens (healthy), and when it said its platforms have
   * started (each loaded); null for a moment not reached yet.
   */
  count(): { healthy: ModuleCount | null; started: ModuleCount | null };
}

/** Writes the preload and its hook under `dir`; the process started with `execArgv` notes into `dir`. */
export function moduleCounter(dir: string): ModuleCounter {
  const log = join(dir, 'modules-loaded.txt');
  const hooks = join(dir, 'module-count-hooks.mjs');
  const preload = join(dir, 'module-count.cjs');
  writeFileSync(log, '');
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  const result = await next(url, context);
  if (result.format === 'module') appendFileSync(${JSON.stringify(log)}, 'es ' + url + '\\n');
  return result;
}\n`,
  );
  writeFileSync(
    preload,
    `const { appendFileSync } = require('node:fs');
const Module = require('node:module');
// the main thread's modules only (a worker, e.g. the gateway hooks', inherits the preload)
if (!require('node:worker_threads').isMainThread) return;
const compile = Module.prototype._compile;
Module.prototype._compile = function (content, filename) {
  appendFileSync(${JSON.stringify(log)}, 'cjs ' + filename + '\\n');
  return compile.call(this, content, filename);
};
const write = process.stderr.write.bind(process.stderr);
process.stderr.write = (chunk, ...rest) => {
  const text = String(chunk);
  if (text.includes('hermes gateway listening on')) appendFileSync(${JSON.stringify(log)}, 'mark healthy\\n');
  if (text.includes('hermes gateway platforms started')) appendFileSync(${JSON.stringify(log)}, 'mark started\\n');
  return write(chunk, ...rest);
};
Module.register(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
  return {
    execArgv: ['--require', preload],
    count() {
      const lines = readFileSync(log, 'utf8').split('\n');
      const upTo = (mark: string): ModuleCount | null => {
        const end = lines.indexOf(`mark ${mark}`);
        if (end < 0) return null;
        const before = lines.slice(0, end);
        return {
          es: before.filter((l) => l.startsWith('es ')).length,
          cjs: before.filter((l) => l.startsWith('cjs ')).length,
        };
      };
      return { healthy: upTo('healthy'), started: upTo('started') };
    },
  };
}

// Start-up cost of loading 0, 10 and 50 TypeScript plugins, each in a fresh process, as ratios against 0.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { smokeOr } from './smoke.js';

const RUNS = smokeOr(7, 1);
const CHILD = fileURLToPath(new URL('./plugin-load-child.mjs', import.meta.url));

function makePlugins(count: number): { dir: string; names: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'hermes-bench-plugins-'));
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    const name = `bench${String(i).padStart(2, '0')}`;
    names.push(name);
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, 'plugin.yaml'), `name: ${name}\nversion: 1.0.0\nprovides_tools: [${name}_tool]\n`);
    writeFileSync(
      join(dir, name, 'index.ts'),
      `import type { ToolSchema } from './types.ts';
const schema: ToolSchema = { name: '${name}_tool', description: 'bench', parameters: { type: 'object', properties: {} } };
export function register(ctx: { registerTool(t: unknown): void; registerHook(e: string, f: () => void): void }): void {
  ctx.registerTool({ name: '${name}_tool', toolset: 'bench', schema, handler: (): string => 'ok' });
  ctx.registerHook('post_tool_call', (): void => {});
}
`,
    );
    writeFileSync(
      join(dir, name, 'types.ts'),
      'export interface ToolSchema { name: string; description: string; parameters: object }\n',
    );
  }
  return { dir, names };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

/** Prints the plugin-load figures. */
export async function runPluginLoad(): Promise<void> {
  // the counts take turns, run by run, so a burst of load on the machine hits them alike
  const sets = [0, 10, 50].map((count) => ({
    count,
    ...makePlugins(count),
    load: [] as number[],
    proc: [] as number[],
  }));
  try {
    for (let i = 0; i < RUNS; i++) {
      for (const set of sets) {
        const started = performance.now();
        const r = spawnSync(process.execPath, [CHILD, set.dir, JSON.stringify(set.names)], { encoding: 'utf8' });
        if (r.status !== 0) throw new Error(r.stderr);
        set.proc.push(performance.now() - started);
        set.load.push(Number(r.stdout));
      }
    }
  } finally {
    for (const set of sets) rmSync(set.dir, { recursive: true, force: true });
  }
  const results = sets.map((s) => ({ count: s.count, loadMs: median(s.load), processMs: median(s.proc) }));
  const base = results[0];
  for (const r of results) {
    console.log(
      `plugin load ${r.count} TS plugins: loadPlugins ${r.loadMs.toFixed(1)} ms, process ${r.processMs.toFixed(1)} ms ` +
        `(${(r.processMs / (base?.processMs ?? 1)).toFixed(2)}x the 0-plugin start-up)`,
    );
  }
}

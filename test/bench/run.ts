// Benchmarks that print figures: `npm run bench` (all but growth and cluster), or `npm run bench -- NAME...` for
// some of them (cold-start, hook-bus, plugin-load, redaction, pipeline, growth, soak, footprint,
// cluster, builds). growth, cluster and builds run only when named.
// Ratios are measured side by side in one run.
import { smokeNotice } from './smoke.js';

// each bench's modules load only when it runs: all of them together take seconds to import
const BENCHES: Record<string, () => Promise<void>> = {
  'cold-start': async () => (await import('./cold-start.js')).runColdStart(),
  'hook-bus': async () => (await import('./hook-bus.js')).runHookBus(),
  'plugin-load': async () => (await import('./plugin-load.js')).runPluginLoad(),
  redaction: async () => (await import('./redaction.js')).runRedaction(),
  pipeline: async () => (await import('./process-pipeline.js')).runProcessPipeline(),
  growth: async () => (await import('./growth.js')).runGrowth(),
  soak: async () => (await import('./soak.js')).runSoak(),
  footprint: async () => (await import('./soak.js')).runFootprint(),
  cluster: async () => (await import('./cluster.js')).runCluster(),
  builds: async () => (await import('./builds.js')).runBuilds(),
};

const ON_REQUEST_ONLY = new Set(['growth', 'cluster', 'builds']);

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !(name in BENCHES));
if (unknown.length > 0) {
  console.error(`unknown bench: ${unknown.join(', ')}; benches: ${Object.keys(BENCHES).join(', ')}`);
  process.exit(2);
}
smokeNotice();
for (const [name, run] of Object.entries(BENCHES)) {
  // growth and cluster take minutes, builds needs another build: only when asked for by name
  if (asked.length === 0 ? !ON_REQUEST_ONLY.has(name) : asked.includes(name)) await run();
}

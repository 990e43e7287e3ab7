// Benchmarks that print figures: `npm run bench` (all but growth and cluster), or `npm run bench -- NAME...` for
// some of them (cold-start, hook-bus, plugin-load, redaction, pipeline, growth, soak, footprint,
// cluster). growth and cluster run only when named.
// Ratios are measured side by side in one run.
import { runCluster } from './cluster.js';
import { runColdStart } from './cold-start.js';
import { runGrowth } from './growth.js';
import { runHookBus } from './hook-bus.js';
import { runPluginLoad } from './plugin-load.js';
import { runProcessPipeline } from './process-pipeline.js';
import { runRedaction } from './redaction.js';
import { runFootprint, runSoak } from './soak.js';

const BENCHES: Record<string, () => Promise<void>> = {
  'cold-start': runColdStart,
  'hook-bus': runHookBus,
  'plugin-load': runPluginLoad,
  redaction: async () => runRedaction(),
  pipeline: () => runProcessPipeline(),
  growth: () => runGrowth(),
  soak: () => runSoak(),
  footprint: runFootprint,
  cluster: runCluster,
};

const ON_REQUEST_ONLY = new Set(['growth', 'cluster']);

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !(name in BENCHES));
if (unknown.length > 0) {
  console.error(`unknown bench: ${unknown.join(', ')}; benches: ${Object.keys(BENCHES).join(', ')}`);
  process.exit(2);
}
for (const [name, run] of Object.entries(BENCHES)) {
  // growth and cluster take minutes: only when asked for by name
  if (asked.length === 0 ? !ON_REQUEST_ONLY.has(name) : asked.includes(name)) await run();
}

// Benchmarks that print figures: `npm run bench` (all), or `npm run bench -- NAME...` for some of
// them (cold-start, hook-bus, plugin-load, redaction, telegram, discord, slack, soak, footprint). Ratios are
// measured side by side in one run.
import { runColdStart } from './cold-start.js';
import { runHookBus } from './hook-bus.js';
import { runDiscordPipeline, runSlackPipeline } from './platform-pipeline.js';
import { runPluginLoad } from './plugin-load.js';
import { runRedaction } from './redaction.js';
import { runFootprint, runSoak } from './soak.js';
import { runTelegramPipeline } from './telegram-pipeline.js';

const BENCHES: Record<string, () => Promise<void>> = {
  'cold-start': runColdStart,
  'hook-bus': runHookBus,
  'plugin-load': runPluginLoad,
  redaction: async () => runRedaction(),
  telegram: () => runTelegramPipeline(),
  discord: () => runDiscordPipeline(),
  slack: () => runSlackPipeline(),
  soak: () => runSoak(),
  footprint: runFootprint,
};

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !(name in BENCHES));
if (unknown.length > 0) {
  console.error(`unknown bench: ${unknown.join(', ')}; benches: ${Object.keys(BENCHES).join(', ')}`);
  process.exit(2);
}
for (const [name, run] of Object.entries(BENCHES)) {
  if (asked.length === 0 || asked.includes(name)) await run();
}

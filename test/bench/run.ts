// Benchmarks that print figures: `npm run bench`. Ratios are measured side by side in one run.
import { runColdStart } from './cold-start.js';
import { runHookBus } from './hook-bus.js';
import { runDiscordPipeline, runSlackPipeline } from './platform-pipeline.js';
import { runPluginLoad } from './plugin-load.js';
import { runTelegramPipeline } from './telegram-pipeline.js';

await runColdStart();
await runHookBus();
await runPluginLoad();
await runTelegramPipeline();
await runDiscordPipeline();
await runSlackPipeline();

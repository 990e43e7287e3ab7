// Child process for the plugin-load benchmark: loads every plugin under argv[2], prints ms.
import { ToolRegistry } from '../../packages/agent/dist/index.js';
import { HookBus, loadPlugins } from '../../packages/plugins/dist/index.js';
import { silentLogger } from '../../packages/protocol/dist/index.js';

const started = performance.now();
const dir = process.argv[2];
const enabled = JSON.parse(process.argv[3]);
const records = await loadPlugins({
  dirs: [{ dir, source: 'user' }],
  enabled,
  disabled: [],
  env: {},
  tools: new ToolRegistry(),
  hooks: new HookBus(),
  logger: silentLogger,
});
const failed = records.filter((r) => r.state !== 'enabled');
if (failed.length > 0) throw new Error(`plugins failed: ${failed.map((r) => r.error).join('; ')}`);
process.stdout.write(String(performance.now() - started));

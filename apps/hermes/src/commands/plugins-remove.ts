/** `hermes plugins remove NAME`: deletes a user-installed plugin and drops it from config. */
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { GlobalOptions } from '../main.js';
import { forgetPlugin } from './plugins-config.js';
import { discoverPlugins } from './plugins-discover.js';
import { pluginsHome } from './plugins-home.js';
import { requireKnownPlugin } from './plugins-known.js';

/** Removes HERMES_HOME/plugins/NAME; refuses bundled and project plugins. */
export async function pluginsRemove(name: string, options: GlobalOptions): Promise<void> {
  const { home, pluginsDir } = pluginsHome(options);
  const dir = join(pluginsDir, name);
  if (name.includes('/') || name.startsWith('.') || !existsSync(dir)) {
    const record = requireKnownPlugin(name, (await discoverPlugins(options, false)).records);
    const hint = record.source === 'bundled' ? `; to turn it off: hermes plugins disable ${name}` : '';
    throw new Error(`${name} is not in ${pluginsDir} (it is ${record.source}: ${record.dir}); not removed${hint}`);
  }
  await rm(dir, { recursive: true, force: true });
  process.stdout.write(`removed ${name} (${dir})\n`);
  // a bundled or project plugin of the same key keeps its place in config
  const still = (await discoverPlugins(options, false)).records.some((r) => r.key === name);
  if (still) return;
  const { changes } = forgetPlugin(home, name);
  if (changes.length > 0) process.stdout.write(`${name}: ${changes.join(', ')}\n`);
}

/** `hermes plugins list [--json]`: every discovered plugin with its state, as a table or JSON. */
import type { GlobalOptions } from '../main.js';
import { discoverPlugins } from './plugins-discover.js';
import { type PluginListEntry, pluginListEntry } from './plugins-entry.js';
import { pluginsHome } from './plugins-home.js';
import { renderPluginTable } from './plugins-table.js';

/** Discovers and loads plugins (throwaway registries) and returns their list entries. */
export async function listPluginEntries(options: GlobalOptions): Promise<PluginListEntry[]> {
  const { records } = await discoverPlugins(options, true);
  return records.map(pluginListEntry);
}

/** Prints the plugin list: a table, or with --json exactly an array of list entries. */
export async function pluginsList(options: GlobalOptions): Promise<void> {
  const entries = await listPluginEntries(options);
  if (options.json) {
    process.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
    return;
  }
  if (entries.length === 0) {
    process.stdout.write(`no plugins found (user plugins go in ${pluginsHome(options).pluginsDir}/<name>/)\n`);
    return;
  }
  process.stdout.write(renderPluginTable(entries));
}

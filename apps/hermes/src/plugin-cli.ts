import { discoverPlugins } from '@hermes/plugins';
import type { Command } from 'commander';
import type { GlobalOptions } from './main.js';
import { addMemoryProviderCli, memoryCliFile, memoryCliPlugins } from './memory-provider-cli.js';
import { pluginRegistrations } from './plugin-registrations.js';
import { pluginAliases, pluginSources } from './plugin-sources.js';
import { loadSettings, type Settings } from './runtime.js';
import { trustGate } from './trust/trust-gate.js';
import { pluginItem } from './trust/trust-items.js';

/** The keys of the plugins whose folder holds a memory provider's CLI file. */
function withCliFile(settings: Settings): (key: string) => boolean {
  const found = discoverPlugins(pluginSources({ home: settings.home, cwd: process.cwd(), env: settings.env }));
  const keys = new Set(found.filter((p) => memoryCliFile(p.dir) !== null).map((p) => p.key));
  return (key) => keys.has(key);
}

/**
 * Adds every enabled plugin's CLI command to `program`, and the memory providers' commands
 * (memory-provider-cli.ts): the active one's, and for the others one that says they are not active.
 * With `memoryOnly` (for `hermes --help`) only the memory providers' commands are added.
 */
export async function addPluginCliCommands(
  program: Command,
  options: GlobalOptions,
  memoryOnly = false,
): Promise<void> {
  const settings = loadSettings(options);
  // for the help, only the plugins with a CLI file are loaded (the others cannot add a memory command)
  const only = memoryOnly ? withCliFile(settings) : undefined;
  const { registries, records } = await pluginRegistrations({ ...settings, ...(only ? { only } : {}) });
  if (!memoryOnly) {
    for (const spec of registries.cliCommands.values()) {
      if (program.commands.some((c) => c.name() === spec.name)) continue; // built-ins win
      const command = program.command(spec.name).description(spec.help || `from plugin ${spec.plugin}`);
      spec.setup(command);
    }
  }
  const plugins = memoryCliPlugins(registries, records);
  if (plugins.length === 0) return;
  const active = settings.config.memory.provider;
  await addMemoryProviderCli(program, {
    home: settings.home,
    active,
    plugins,
    // the operator's consent bound to the plugin's files (cli.ts among them), as a run asks it
    approved: (key) => {
      const record = records.find((r) => r.key === key);
      return (
        record === undefined ||
        record.source === 'bundled' ||
        trustGate(settings, [pluginItem(record)]).allows(`plugin:${key}`)
      );
    },
    aliases: pluginAliases(),
  });
}

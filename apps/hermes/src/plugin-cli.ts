import type { Command } from 'commander';
import type { GlobalOptions } from './main.js';
import { pluginRegistrations } from './plugin-registrations.js';
import { loadSettings } from './runtime.js';

/** Adds every enabled plugin's CLI command to `program`. */
export async function addPluginCliCommands(program: Command, options: GlobalOptions): Promise<void> {
  const settings = loadSettings(options);
  const { registries } = await pluginRegistrations(settings);
  for (const spec of registries.cliCommands.values()) {
    if (program.commands.some((c) => c.name() === spec.name)) continue; // built-ins win
    const command = program.command(spec.name).description(spec.help || `from plugin ${spec.plugin}`);
    spec.setup(command);
  }
}

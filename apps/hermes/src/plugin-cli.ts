/**
 * `hermes <name> ...` subcommands registered by plugins with ctx.registerCliCommand. Loaded only
 * when the first argument is not a built-in command, so built-in commands and --help stay fast.
 */
import { ToolRegistry } from '@hermes/agent';
import { HookBus, loadPlugins, PluginRegistries } from '@hermes/plugins';
import { silentLogger } from '@hermes/protocol';
import type { Command } from 'commander';
import type { GlobalOptions } from './main.js';
import { pluginAliases, pluginSources } from './plugin-sources.js';
import { loadSettings } from './runtime.js';

/** Adds every enabled plugin's CLI command to `program`. */
export async function addPluginCliCommands(program: Command, options: GlobalOptions): Promise<void> {
  const settings = loadSettings(options);
  const registries = new PluginRegistries();
  await loadPlugins({
    dirs: pluginSources({ home: settings.home, cwd: process.cwd(), env: settings.env }),
    enabled: settings.config.plugins.enabled,
    disabled: settings.config.plugins.disabled,
    env: settings.env,
    tools: new ToolRegistry(),
    hooks: new HookBus(),
    logger: silentLogger,
    aliases: pluginAliases(),
    host: { registries },
  });
  for (const spec of registries.cliCommands.values()) {
    if (program.commands.some((c) => c.name() === spec.name)) continue; // built-ins win
    const command = program.command(spec.name).description(spec.help || `from plugin ${spec.plugin}`);
    spec.setup(command);
  }
}

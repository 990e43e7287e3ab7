/**
 * A memory provider's own commands, by convention (the seed's `cli.py` with `register_cli`): a
 * memory provider plugin may hold `cli.ts` (or .mts/.js/.mjs) exporting `registerCli(command,
 * info)`, which builds `hermes <provider> ...`. No `ctx.registerCliCommand` is needed. The
 * commands exist only while that provider is the active one (`memory.provider`); otherwise
 * `hermes <provider>` says it is not and how to make it so.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { MemoryCliInfo } from '@hermes/plugin-sdk';
import { createModuleImporter, type PluginRecord, type PluginRegistries } from '@hermes/plugins';
import { Command } from 'commander';
import { CliExit } from './cli-error.js';

export const MEMORY_CLI_FILES = ['cli.ts', 'cli.mts', 'cli.js', 'cli.mjs'] as const;

/** A memory provider plugin with a CLI file. */
export interface MemoryCliPlugin {
  provider: string;
  record: PluginRecord;
  file: string;
  /** false: discovered under memory/ but not loaded (not enabled, disabled, env missing) */
  loaded: boolean;
}

/** The plugin's CLI file, or null. */
export function memoryCliFile(dir: string): string | null {
  return MEMORY_CLI_FILES.map((f) => join(dir, f)).find((f) => existsSync(f)) ?? null;
}

/**
 * The memory provider plugins with a CLI file: the loaded ones by the provider they registered,
 * the others of a `memory/` folder by their manifest's name (their code is not run to ask).
 */
export function memoryCliPlugins(registries: PluginRegistries, records: readonly PluginRecord[]): MemoryCliPlugin[] {
  const out: MemoryCliPlugin[] = [];
  for (const registration of registries.memoryProviders.values()) {
    const record = records.find((r) => r.key === registration.plugin);
    const file = record ? memoryCliFile(record.dir) : null;
    if (record && file) out.push({ provider: registration.name, record, file, loaded: true });
  }
  for (const record of records) {
    if (record.state === 'enabled' || !record.key.startsWith('memory/') || !record.manifest) continue;
    const file = memoryCliFile(record.dir);
    if (file && !out.some((p) => p.provider === record.manifest?.name))
      out.push({ provider: record.manifest.name, record, file, loaded: false });
  }
  return out;
}

type RegisterCli = (command: Command, info: MemoryCliInfo) => unknown;

function findRegisterCli(mod: unknown): RegisterCli | null {
  if (typeof mod !== 'object' || mod === null) return null;
  const m = mod as { registerCli?: unknown; default?: unknown };
  if (typeof m.registerCli === 'function') return m.registerCli as RegisterCli;
  const d = m.default as { registerCli?: unknown } | undefined;
  if (typeof d === 'object' && d !== null && typeof d.registerCli === 'function') return d.registerCli as RegisterCli;
  return null;
}

/** Why `hermes <provider>` does not run: one line with the command that changes it. */
export function notActiveMessage(plugin: MemoryCliPlugin, active: string): string {
  const { provider, record } = plugin;
  // enabled but not approved: no command runs its code (trust/plugin-consent.ts), cli.ts included
  if (record.state === 'not_approved') {
    return `plugin ${record.key} is not approved: run \`hermes trust approve plugin:${record.key}\``;
  }
  const select = `\`hermes config set memory.provider ${provider}\``;
  const inactive = `${provider} is not the active memory provider (memory.provider is ${active})`;
  if (plugin.loaded) return `${inactive}: run ${select} to make it so`;
  const offByConfig = record.state === 'not_enabled' || record.state === 'disabled';
  const why = offByConfig ? record.state.replace('_', ' ') : `${record.state}: ${record.error ?? ''}`;
  const notLoaded = `its plugin ${record.key} is not loaded (${why.split('\n')[0]})`;
  const enable = offByConfig ? `\`hermes plugins enable ${record.key}\`` : '';
  if (provider === active)
    return `${provider} is the memory provider, but ${notLoaded}${enable ? `: run ${enable}` : ''}`;
  return `${inactive} and ${notLoaded}: run ${[enable, select].filter(Boolean).join(' and ')}`;
}

/** A command that only fails with `message` (hidden from the help, any arguments accepted). */
function failingCommand(program: Command, name: string, message: string, hidden: boolean): void {
  program
    .command(name, { hidden })
    .description(message)
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .argument('[args...]')
    .action(() => {
      throw new CliExit(1, message);
    });
}

export interface AddMemoryCliOptions {
  home: string;
  /** memory.provider */
  active: string;
  plugins: readonly MemoryCliPlugin[];
  /** false for a plugin key whose files the operator has not approved */
  approved: (key: string) => boolean;
  aliases: Record<string, string>;
}

/**
 * Adds the active provider's `hermes <provider>` (built by its `registerCli`) and, hidden, a
 * command for each other one that says it is not active. A built-in or plugin command of the same
 * name wins.
 */
export async function addMemoryProviderCli(program: Command, options: AddMemoryCliOptions): Promise<void> {
  const taken = (name: string) => program.commands.some((c) => c.name() === name || c.aliases().includes(name));
  for (const plugin of options.plugins) {
    const { provider, record } = plugin;
    if (taken(provider)) continue;
    if (provider !== options.active || !plugin.loaded) {
      failingCommand(program, provider, notActiveMessage(plugin, options.active), true);
      continue;
    }
    if (!options.approved(record.key)) {
      const approve = `hermes trust approve plugin:${record.key}`;
      failingCommand(program, provider, `plugin ${record.key} is not approved: run \`${approve}\``, false);
      continue;
    }
    // as program.command() would make it: exitOverride, output and help settings inherited
    const command = new Command(provider)
      .copyInheritedSettings(program)
      .description(record.manifest?.description || `${provider} memory provider`);
    const info: MemoryCliInfo = {
      provider,
      key: record.key,
      dir: record.dir,
      dataDir: join(options.home, 'plugin-data', ...record.key.split('/')),
      home: options.home,
    };
    try {
      const load = await createModuleImporter(options.aliases);
      const registerCli = findRegisterCli(await load(plugin.file));
      if (!registerCli) throw new Error(`${plugin.file} exports no registerCli(command) function`);
      await registerCli(command, info);
      program.addCommand(command);
    } catch (err) {
      const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
      failingCommand(program, provider, `the commands of memory provider ${provider} failed to load: ${why}`, false);
    }
  }
}

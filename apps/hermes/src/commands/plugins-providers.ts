/**
 * The "Provider Plugins" section of the interactive `hermes plugins`: one single-choice picker for
 * the memory provider (`memory.provider`) and one for the context engine (`context.engine`). The
 * choices are the built-in one, what the loaded plugins registered, and the plugins of a `memory/`
 * or `context_engine/` folder that are not loaded (known by their manifest's name: their code is
 * not run to ask). Picks are written through the comment-keeping config writer; picking a plugin's
 * provider also enables that plugin (at a terminal, recording the consent for its files).
 */
import { loadConfig, setConfigValue } from '@hermes/config';
import type { PluginRecord, PluginRegistries } from '@hermes/plugins';
import { readPluginLists } from './plugins-config.js';
import type { Prompter } from './plugins-prompt.js';
import { applyToggle } from './plugins-toggle.js';

export interface ProviderChoice {
  name: string;
  /** the plugin that provides it; null for the built-in one (or a name nothing registers) */
  plugin: PluginRecord | null;
  /** what the picker shows after the name */
  note: string;
}

export interface ProviderPicker {
  title: 'Memory Provider' | 'Context Engine';
  key: 'memory.provider' | 'context.engine';
  /** the value in config.yaml */
  current: string;
  /** the value picked in this session */
  chosen: string;
  choices: ProviderChoice[];
}

interface Kind {
  title: ProviderPicker['title'];
  key: ProviderPicker['key'];
  builtin: string;
  builtinNote: string;
  folder: string;
  registered: (registries: PluginRegistries) => Iterable<{ name: string; plugin: string }>;
  read: (config: ReturnType<typeof loadConfig>['config']) => string;
}

const KINDS: readonly Kind[] = [
  {
    title: 'Memory Provider',
    key: 'memory.provider',
    builtin: 'builtin',
    builtinNote: 'built-in: MEMORY.md and a profile per user in HERMES_HOME/memories',
    folder: 'memory/',
    registered: (r) => r.memoryProviders.values(),
    read: (c) => c.memory.provider,
  },
  {
    title: 'Context Engine',
    key: 'context.engine',
    builtin: 'compressor',
    builtinNote: 'built-in: summarizes the middle of a long history',
    folder: 'context_engine/',
    registered: (r) => r.contextEngines.values(),
    read: (c) => c.context.engine,
  },
];

function pluginNote(record: PluginRecord): string {
  const loaded = record.state === 'enabled' ? '' : ` (${record.state.replace('_', ' ')})`;
  return `plugin ${record.key}${loaded}`;
}

/** The two pickers, from the config file's values and what the plugins register. */
export function providerPickers(
  home: string,
  registries: PluginRegistries,
  records: readonly PluginRecord[],
): ProviderPicker[] {
  const { config } = loadConfig({ home, env: {} });
  return KINDS.map((kind) => {
    const choices: ProviderChoice[] = [{ name: kind.builtin, plugin: null, note: kind.builtinNote }];
    const add = (name: string, plugin: PluginRecord | null, note: string) => {
      if (!choices.some((c) => c.name === name)) choices.push({ name, plugin, note });
    };
    for (const { name, plugin } of kind.registered(registries)) {
      const record = records.find((r) => r.key === plugin) ?? null;
      add(name, record, record ? pluginNote(record) : `plugin ${plugin}`);
    }
    for (const record of records) {
      if (record.key.startsWith(kind.folder) && record.manifest && record.state !== 'enabled')
        add(record.manifest.name, record, pluginNote(record));
    }
    const current = kind.read(config);
    add(current, null, 'not registered by any plugin');
    return { title: kind.title, key: kind.key, current, chosen: current, choices };
  });
}

/** The section's lines, numbered from `first`. */
export function renderProviders(pickers: readonly ProviderPicker[], first: number, width: number): string {
  const lines = pickers.map((p, i) => `  ${String(first + i).padStart(width)}. ${p.title.padEnd(16)} ▸ ${p.chosen}\n`);
  return `Provider Plugins (one of each is active; pick a number to choose)\n${lines.join('')}`;
}

/** The single-choice list of one picker; sets `chosen` (Enter keeps it). */
export async function pickProvider(picker: ProviderPicker, prompter: Prompter): Promise<void> {
  const width = String(picker.choices.length).length;
  for (;;) {
    const rows = picker.choices.map(
      (c, i) => `  ${String(i + 1).padStart(width)}. (${c.name === picker.chosen ? '•' : ' '}) ${c.name} — ${c.note}\n`,
    );
    process.stdout.write(`${picker.title} (${picker.key})\n${rows.join('')}`);
    const answer = (await prompter.ask(`Which one? (Enter keeps ${picker.chosen}) `))?.trim() ?? '';
    if (answer === '') return;
    const choice = /^\d+$/.test(answer) ? picker.choices[Number(answer) - 1] : undefined;
    if (choice) {
      picker.chosen = choice.name;
      return;
    }
    process.stdout.write(`no choice number ${answer}\n`);
  }
}

/** Writes each changed pick to config.yaml and enables the picked plugin when it is not; true when anything changed. */
export function saveProviderPicks(home: string, pickers: readonly ProviderPicker[]): boolean {
  let changed = false;
  for (const picker of pickers) {
    if (picker.chosen === picker.current) continue;
    setConfigValue({ home, key: picker.key, value: picker.chosen });
    process.stdout.write(`${picker.key}: ${picker.current} → ${picker.chosen}\n`);
    changed = true;
    const plugin = picker.choices.find((c) => c.name === picker.chosen)?.plugin;
    const lists = readPluginLists(home);
    // an interactive terminal: enabling records consent for the plugin's files
    if (plugin && (!lists.enabled.includes(plugin.key) || lists.disabled.includes(plugin.key)))
      applyToggle(home, plugin.key, true, plugin);
  }
  return changed;
}

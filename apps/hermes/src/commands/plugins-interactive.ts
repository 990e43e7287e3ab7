/**
 * Bare `hermes plugins`: on a TTY a numbered toggle list ([x] = enabled), then the Provider Plugins
 * section (plugins-providers.ts: single-choice pickers for the memory provider and the context
 * engine), saved on Enter/q; when stdin is not a terminal it prints the list like `hermes plugins list`.
 */
import { loadsWithoutOptIn } from '@hermes/plugins';
import type { GlobalOptions } from '../main.js';
import { pluginRegistrations } from '../plugin-registrations.js';
import { whyNotOn } from '../plugin-summary.js';
import { loadSettings } from '../runtime.js';
import { readPluginLists } from './plugins-config.js';
import { pluginsList } from './plugins-list.js';
import { createPrompter } from './plugins-prompt.js';
import { pickProvider, providerPickers, renderProviders, saveProviderPicks } from './plugins-providers.js';
import { applyToggle } from './plugins-toggle.js';

interface Row {
  key: string;
  label: string;
  on: boolean;
  was: boolean;
}

function render(rows: readonly Row[], width: number): string {
  return rows.map((r, i) => `  ${String(i + 1).padStart(width)}. [${r.on ? 'x' : ' '}] ${r.label}\n`).join('');
}

/** Runs the toggle list on a TTY (or prints the list when piped). */
export async function pluginsInteractive(options: GlobalOptions): Promise<void> {
  const prompter = createPrompter();
  if (!prompter.interactive) {
    await pluginsList(options);
    return;
  }
  // enabled plugins are loaded (as `plugins list` does) to learn the providers they register
  const settings = loadSettings(options);
  const { home } = settings;
  const { registries, records } = await pluginRegistrations(settings);
  if (records.length === 0) {
    await pluginsList(options);
    return;
  }
  const lists = readPluginLists(home);
  const rows: Row[] = records.map((r) => {
    // as `plugins list` has it: bundled platforms and backends are on unless disabled
    const byDefault = r.manifest !== null && loadsWithoutOptIn(r.source, r.manifest);
    const on = !lists.disabled.includes(r.key) && (lists.enabled.includes(r.key) || byDefault);
    const description = r.manifest?.description ? ` — ${r.manifest.description}` : '';
    const tag = r.source === 'user' ? '' : ` [${r.source}]`;
    // the state `plugins list` shows, where it is not plainly on or off
    const state =
      r.state === 'env_missing' || r.state === 'failed' || r.state === 'not_approved' ? ` (${whyNotOn(r, 80)})` : '';
    return { key: r.key, label: `${r.key}${description}${tag}${state}`, on, was: on };
  });
  const pickers = providerPickers(home, registries, records);
  const width = String(rows.length + pickers.length).length;
  try {
    for (;;) {
      process.stdout.write(`General Plugins ([x] = enabled)\n${render(rows, width)}`);
      process.stdout.write(renderProviders(pickers, rows.length + 1, width));
      const answer = (await prompter.ask('Toggle or pick which number? (Enter or q to save and quit) '))?.trim() ?? '';
      if (answer === '' || answer.toLowerCase() === 'q') break;
      const n = /^\d+$/.test(answer) ? Number(answer) : 0;
      const row = rows[n - 1];
      const picker = pickers[n - 1 - rows.length];
      if (row) row.on = !row.on;
      else if (picker) await pickProvider(picker, prompter);
      else process.stdout.write(`no plugin number ${answer}\n`);
    }
  } finally {
    prompter.close();
  }
  const changed = rows.filter((r) => r.on !== r.was);
  // an interactive terminal: enabling records consent for the plugin's files
  for (const r of changed)
    applyToggle(
      home,
      r.key,
      r.on,
      records.find((x) => x.key === r.key),
    );
  // after the toggles: picking a plugin's provider enables that plugin
  const picked = saveProviderPicks(home, pickers);
  if (changed.length === 0 && !picked) process.stdout.write('no changes\n');
}

/**
 * Bare `hermes plugins`: on a TTY a numbered toggle list ([x] = enabled) saved on Enter/q; when
 * stdin is not a terminal it prints the list like `hermes plugins list`.
 */
import { loadsWithoutOptIn } from '@hermes/plugins';
import type { GlobalOptions } from '../main.js';
import { whyNotOn } from '../plugin-summary.js';
import { readPluginLists } from './plugins-config.js';
import { discoverPlugins } from './plugins-discover.js';
import { pluginsList } from './plugins-list.js';
import { createPrompter } from './plugins-prompt.js';
import { applyToggle } from './plugins-toggle.js';

interface Row {
  key: string;
  label: string;
  on: boolean;
  was: boolean;
}

function render(rows: readonly Row[]): string {
  const width = String(rows.length).length;
  return rows.map((r, i) => `  ${String(i + 1).padStart(width)}. [${r.on ? 'x' : ' '}] ${r.label}\n`).join('');
}

/** Runs the toggle list on a TTY (or prints the list when piped). */
export async function pluginsInteractive(options: GlobalOptions): Promise<void> {
  const prompter = createPrompter();
  if (!prompter.interactive) {
    await pluginsList(options);
    return;
  }
  const { home, records } = await discoverPlugins(options, false);
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
    const state = r.state === 'env_missing' || r.state === 'failed' ? ` (${whyNotOn(r, 80)})` : '';
    return { key: r.key, label: `${r.key}${description}${tag}${state}`, on, was: on };
  });
  try {
    for (;;) {
      process.stdout.write(`Plugins ([x] = enabled)\n${render(rows)}`);
      const answer = (await prompter.ask('Toggle which number? (Enter or q to save and quit) '))?.trim() ?? '';
      if (answer === '' || answer.toLowerCase() === 'q') break;
      const row = rows[Number(answer) - 1];
      if (!/^\d+$/.test(answer) || !row) {
        process.stdout.write(`no plugin number ${answer}\n`);
        continue;
      }
      row.on = !row.on;
    }
  } finally {
    prompter.close();
  }
  const changed = rows.filter((r) => r.on !== r.was);
  if (changed.length === 0) process.stdout.write('no changes\n');
  // an interactive terminal: enabling records consent for the plugin's files
  for (const r of changed)
    applyToggle(
      home,
      r.key,
      r.on,
      records.find((x) => x.key === r.key),
    );
}

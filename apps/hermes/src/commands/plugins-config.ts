/** plugins.enabled / plugins.disabled in config.yaml: read from the file, edited in place. */
import { loadConfig, setConfigValue } from '@hermes/config';

export interface PluginLists {
  enabled: string[];
  disabled: string[];
}

export interface ToggleResult {
  /** what changed, for printing; empty when nothing did */
  changes: string[];
}

/** The lists as written in config.yaml (environment overrides ignored). */
export function readPluginLists(home: string): PluginLists {
  const { config } = loadConfig({ home, env: {} });
  return { enabled: [...config.plugins.enabled], disabled: [...config.plugins.disabled] };
}

function writeList(home: string, which: 'enabled' | 'disabled', list: readonly string[]): void {
  setConfigValue({ home, key: `plugins.${which}`, value: list.join(',') });
}

/** Turns `key` on (into enabled, out of disabled) or off (the reverse); writes only what changes. */
export function setPluginEnabled(home: string, key: string, on: boolean): ToggleResult {
  const lists = readPluginLists(home);
  const [addTo, removeFrom] = on ? (['enabled', 'disabled'] as const) : (['disabled', 'enabled'] as const);
  const changes: string[] = [];
  if (!lists[addTo].includes(key)) {
    writeList(home, addTo, [...lists[addTo], key]);
    changes.push(`added to plugins.${addTo}`);
  }
  if (lists[removeFrom].includes(key)) {
    writeList(
      home,
      removeFrom,
      lists[removeFrom].filter((k) => k !== key),
    );
    changes.push(`removed from plugins.${removeFrom}`);
  }
  return { changes };
}

/** Removes `key` from both lists (after an uninstall); returns what changed. */
export function forgetPlugin(home: string, key: string): ToggleResult {
  const lists = readPluginLists(home);
  const changes: string[] = [];
  for (const which of ['enabled', 'disabled'] as const) {
    if (!lists[which].includes(key)) continue;
    writeList(
      home,
      which,
      lists[which].filter((k) => k !== key),
    );
    changes.push(`removed from plugins.${which}`);
  }
  return { changes };
}

/**
 * What a reload may change in a running gateway: the config.yaml keys that differ between two
 * configs, each either applied by the reload or left for a restart. The reloadable keys are listed
 * here (every other key needs a restart), so a new config key is never claimed to reload by accident.
 */

/** config.yaml keys (a key or the subtree under it) a reload applies. */
export const RELOADABLE_KEYS: readonly string[] = [
  // the plugin set: newly enabled plugins load, disabled ones unload
  'plugins.enabled',
  'plugins.disabled',
  // shell hooks (and the escape hatch their consent reads)
  'hooks',
  'hooks_auto_accept',
  'skills',
  'mcp_servers',
  // the settings new turns start with (turnConfig of @hermes/agent)
  'agent.system_prompt',
  'agent.toolsets',
  'agent.tool_descriptions',
  'agent.max_iterations',
  'agent.tool_timeout_s',
  'agent.max_parallel_children',
  'agent.child_max_iterations',
  'agent.child_timeout_s',
  'model.max_tokens',
  'model.temperature',
  'model.vision',
  'model.context_length',
  'context',
  'auxiliary.compression.model',
];

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The dotted paths of the leaves that differ (an array is one leaf), sorted. */
export function changedKeys(before: unknown, after: unknown, prefix = ''): string[] {
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
    return [...keys].flatMap((k) => changedKeys(before[k], after[k], prefix === '' ? k : `${prefix}.${k}`)).sort();
  }
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [prefix];
}

/** Whether a reload applies `key` (it is, or is under, a reloadable key). */
export function reloads(key: string): boolean {
  return RELOADABLE_KEYS.some((k) => key === k || key.startsWith(`${k}.`));
}

/** The changed keys a reload cannot apply (needs a restart), collapsed to one per reported parent (`gateway.platforms.telegram`). */
export function restartKeys(keys: readonly string[]): string[] {
  return [...new Set(keys.filter((k) => !reloads(k)).map(reportedKey))].sort();
}

/** `gateway.platforms.telegram.mode` is reported as `gateway.platforms.telegram`; a user-named map entry as its entry. */
function reportedKey(key: string): string {
  const parts = key.split('.');
  if (parts[0] === 'gateway' && parts[1] === 'platforms') return parts.slice(0, 3).join('.');
  return key;
}

/** The .env variables whose value differs (names only: values are secrets). */
export function changedEnvNames(
  before: Readonly<Record<string, string>>,
  after: Readonly<Record<string, string>>,
): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((n) => before[n] !== after[n]).sort();
}

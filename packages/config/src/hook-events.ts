/** Checks the event names of the `hooks:` block against the hook table (unknown = warning). */
import { HOOK_NAMES, isHookName } from '@hermes/protocol';
import { type Document, isMap, type LineCounter } from 'yaml';
import type { ConfigWarning } from './config-warning.js';
import { closestMatch, didYouMean } from './edit-distance.js';
import { keyText, nodeLine } from './yaml-location.js';

/** One warning per `hooks.<event>` whose event is not a plugin hook name. */
export function checkHookEvents(doc: Document, file: string, lineCounter: LineCounter): ConfigWarning[] {
  const hooks = isMap(doc.contents) ? doc.contents.get('hooks', true) : undefined;
  if (!isMap(hooks)) return [];
  const warnings: ConfigWarning[] = [];
  for (const pair of hooks.items) {
    const event = keyText(pair.key);
    if (isHookName(event)) continue;
    const line = nodeLine(pair.key, lineCounter);
    const suggestion = closestMatch(event, HOOK_NAMES);
    warnings.push({
      kind: 'unknown_hook_event',
      file,
      line,
      key: `hooks.${event}`,
      ...(suggestion === undefined ? {} : { suggestion }),
      message: `${file}${line === null ? '' : `:${line}`}: unknown hook event "${event}" in hooks (valid events: ${HOOK_NAMES.join(', ')})${didYouMean(event, HOOK_NAMES)}`,
    });
  }
  return warnings;
}

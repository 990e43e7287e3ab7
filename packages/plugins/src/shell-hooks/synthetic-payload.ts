/** A synthetic payload for `hermes hooks test` / `doctor`: the hook table's example, adjusted. */
import { HOOKS, type HookName, type HookPayloads } from '@hermes/protocol';

export interface SyntheticPayloadOptions {
  /** tool events: the tool name (default: the example's) */
  forTool?: string;
  /**
   * Keys merged over the example (shallow): wire names (`user_message`, `tool_name`), payload
   * names (`userMessage`), or `tool_input` for the tool's arguments.
   */
  overrides?: Readonly<Record<string, unknown>>;
}

/** The example payload of `event` with `forTool` and `overrides` applied. */
export function syntheticPayload<K extends HookName>(event: K, options: SyntheticPayloadOptions = {}): HookPayloads[K] {
  const spec = HOOKS[event];
  const fields: Readonly<Record<string, { wire: string }>> = spec.fields;
  const byWire = new Map(Object.entries(fields).map(([key, doc]) => [doc.wire, key]));
  const payload: Record<string, unknown> = structuredClone({ ...spec.example });
  const toolEvent = Object.hasOwn(fields, 'toolName');
  if (toolEvent && options.forTool !== undefined) payload.toolName = options.forTool;
  for (const [key, value] of Object.entries(options.overrides ?? {})) {
    if (key === 'tool_input' && toolEvent) {
      payload[Object.hasOwn(fields, 'args') ? 'args' : 'arguments'] = value;
      continue;
    }
    payload[byWire.get(key) ?? key] = value;
  }
  // the table's examples carry every field of their hook (checked by the hook-table test)
  return payload as HookPayloads[K];
}

/** Which hooks concern one tool call (their payload names the tool): the only events a `matcher` applies to. */
import { HOOK_NAMES, HOOKS, type HookName } from '@hermes/protocol';

/** Hooks whose payload has `toolName`, derived from the hook table: pre_tool_call, post_tool_call, transform_tool_result. */
export const TOOL_EVENTS: readonly HookName[] = Object.freeze(
  HOOK_NAMES.filter((name) => Object.hasOwn(HOOKS[name].fields, 'toolName')),
);

/** True when `event` is a tool event (a matcher applies to it). */
export function isToolEvent(event: HookName): boolean {
  return TOOL_EVENTS.includes(event);
}

/** The tool name of a tool event's payload, else null. */
export function toolNameOf(payload: unknown): string | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const name = (payload as { toolName?: unknown }).toolName;
  return typeof name === 'string' ? name : null;
}

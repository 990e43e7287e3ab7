/** The tools a `delegate_task` child may use: the parent's, minus the ones a child must never have. */
import type { ToolDefinition } from '@hermes/protocol';

/**
 * Never given to a child, whatever it asks for: no recursion (`delegate_task`), no messages to the
 * user's chats (`send_message`), no memory writes (`memory`), no scheduling (`cronjob`), no
 * questions to the user (`clarify`).
 */
export const CHILD_EXCLUDED_TOOLS: ReadonlySet<string> = new Set([
  'delegate_task',
  'send_message',
  'memory',
  'cronjob',
  'clarify',
]);

/**
 * The child's tools: `parentTools` (what the parent turn may use) without the excluded ones; when
 * `requested` is given, only those whose toolset or name it lists (an intersection: a child never
 * gets a tool its parent could not use).
 */
export function childTools(
  parentTools: readonly ToolDefinition[],
  requested: readonly string[] | null,
): ToolDefinition[] {
  return parentTools.filter(
    (tool) =>
      !CHILD_EXCLUDED_TOOLS.has(tool.name) &&
      (requested === null || requested.includes(tool.toolset) || requested.includes(tool.name)),
  );
}

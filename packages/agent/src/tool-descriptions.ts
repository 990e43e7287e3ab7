/**
 * `agent.tool_descriptions: short`: every tool offered with the first sentence of its description
 * and without its parameters' descriptions, for small local models whose context window the full
 * schemas would fill (docs/context-engines.md has the figures). `auto`, the default, does that for a
 * turn whose full schemas would take more than a fifth of the model's window (a 4,096-token model:
 * the history keeps the room for the last exchanges). The tool itself is unchanged: only what the
 * model is told about it is shorter.
 */
import type { ToolDefinition, ToolSchema } from '@hermes/protocol';
import { fixedTokens } from './context/turn-context.js';

/** `auto`: the full schemas may take this share of the context window */
export const AUTO_SHORT_SHARE = 0.2;

const shortened = new WeakMap<ToolDefinition, ToolDefinition>();

/** The first sentence of `text` (up to the first ". " or line end), or all of it. */
export function firstSentence(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  const end = line.search(/[.!?](\s|$)/);
  return end === -1 ? line : line.slice(0, end + 1);
}

/** `parameters` without the `description` of any property, at any depth. */
function withoutDescriptions(value: unknown, isPropertyMap = false): unknown {
  if (Array.isArray(value)) return value.map((v) => withoutDescriptions(v));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === 'description' && !isPropertyMap) continue;
    out[key] = withoutDescriptions(v, key === 'properties');
  }
  return out;
}

/** The tool with its short description (the same object each time). */
export function shortTool(tool: ToolDefinition): ToolDefinition {
  const known = shortened.get(tool);
  if (known) return known;
  const schema: ToolSchema = {
    ...tool.schema,
    description: firstSentence(tool.schema.description),
    parameters: withoutDescriptions(tool.schema.parameters) as ToolSchema['parameters'],
  };
  const short = { ...tool, schema };
  shortened.set(tool, short);
  return short;
}

/** The tools as a turn offers them: `short` always shortened, `auto` when the full ones take over AUTO_SHORT_SHARE of `window`. */
export function fitDescriptions(
  tools: readonly ToolDefinition[],
  mode: 'full' | 'short' | 'auto',
  window: number | undefined,
): readonly ToolDefinition[] {
  if (mode === 'short') return tools.map(shortTool);
  if (mode === 'full' || window === undefined) return tools;
  return fixedTokens('', tools) > AUTO_SHORT_SHARE * window ? tools.map(shortTool) : tools;
}

/** The plugin-hook reference table in Markdown, derived from the hook table (docs/hooks.md embeds it). */
import { HOOK_NAMES, HOOKS } from '@hermes/protocol';

export const HOOK_REFERENCE_BEGIN = '<!-- hook-reference:begin (generated from packages/protocol/src/hooks.ts) -->';
export const HOOK_REFERENCE_END = '<!-- hook-reference:end -->';

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** The summary table plus one payload table per hook. */
export function hookReferenceMarkdown(): string {
  const lines: string[] = ['| Hook | Kind | Fires | Returns |', '|---|---|---|---|'];
  for (const name of HOOK_NAMES) {
    const spec = HOOKS[name];
    lines.push(`| \`${name}\` | ${spec.kind} | ${cell(spec.fires)} | ${cell(spec.returns)} |`);
  }
  for (const name of HOOK_NAMES) {
    const spec = HOOKS[name];
    lines.push('', `### \`${name}\``, '', `${spec.fires}. Returns: ${spec.returns}.`, '');
    lines.push('| Payload key (TypeScript) | Wire key (shell hooks, JSON) | Type | Meaning |', '|---|---|---|---|');
    for (const [key, field] of Object.entries(spec.fields)) {
      lines.push(`| \`${key}\` | \`${field.wire}\` | ${cell(field.type)} | ${cell(field.description)} |`);
    }
  }
  return lines.join('\n');
}

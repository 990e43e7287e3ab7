import { DANGEROUS_PATTERNS, type DangerousPattern } from './dangerous-patterns.js';

const cell = (text: string): string => text.replace(/\|/g, '\\|');

/** The markdown table of dangerous patterns that docs/tools.md embeds (a test keeps the two equal). */
export function renderDangerousPatternTable(patterns: readonly DangerousPattern[] = DANGEROUS_PATTERNS): string {
  const rows = patterns.map(
    (p) => `| \`${p.key}\` | ${cell(p.description)} | ${p.examples.map((e) => `\`${cell(e)}\``).join('<br>')} |`,
  );
  return ['| Key | Catches | Examples |', '| --- | --- | --- |', ...rows].join('\n');
}

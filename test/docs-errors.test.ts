// docs/errors.md's code table is the list of ERROR_CODES: one row per code, no row for a code that does not exist.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ERROR_CODES } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';

const text = readFileSync(fileURLToPath(new URL('../docs/errors.md', import.meta.url)), 'utf8');

/** The first column of the first Markdown table whose header starts with `| code`. */
function firstCodeColumn(markdown: string): string[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => /^\|\s*code\s*\|/.test(l));
  const rows: string[] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const cell = line.split('|')[1]?.trim() ?? '';
    rows.push(cell.replace(/^`|`$/g, ''));
  }
  return rows;
}

describe('docs/errors.md', () => {
  it('its code table has exactly one row per ERROR_CODES entry', () => {
    const rows = firstCodeColumn(text);
    expect(new Set(rows).size).toBe(rows.length);
    expect([...rows].sort()).toEqual(Object.values(ERROR_CODES).sort());
  });
});

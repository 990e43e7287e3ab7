// The kit's pipe tables: finding one, its cells, and the aligned layout each platform wraps.
import { describe, expect, it } from 'vitest';
import { isTableSeparator, layoutTable, renderTableLines, tableCells, takeTable } from '../../src/index.js';

describe('pipe tables', () => {
  it('splits cells on unescaped pipes and drops the edge pipes', () => {
    expect(tableCells('| a | b \\| c |')).toEqual(['a', 'b | c']);
    expect(tableCells('a|b')).toEqual(['a', 'b']);
    expect(isTableSeparator('|---|:---:|')).toBe(true);
    expect(isTableSeparator('| a | b |')).toBe(false);
  });

  it('takes the table at an index with its body rows, and nothing where none starts', () => {
    const lines = ['intro', '| a | b |', '|---|---|', '| 1 | 2 |', '| 3 | 4 |', '', 'after'];
    expect(takeTable(lines, 0)).toBeUndefined();
    expect(takeTable(lines, 1)).toEqual({ rows: lines.slice(1, 5), next: 5 });
    expect(takeTable(['a | b', 'no separator'], 0)).toBeUndefined();
  });

  it('lays columns out by code points, with a rule under the header', () => {
    expect(layoutTable([['name', 'n'], ['🦊', '10'], ['bo']])).toEqual([
      'name | n',
      '-----+---',
      '🦊    | 10',
      'bo   |',
    ]);
    expect(renderTableLines(['| **a** | b |', '|---|---|', '| c | d |'], (cell) => cell.replaceAll('*', ''))).toEqual([
      'a | b',
      '--+--',
      'c | d',
    ]);
  });
});

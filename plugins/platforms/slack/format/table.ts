/** Markdown pipe tables → a monospace block with aligned columns (Slack has no tables). */
import { layoutTable, tableCells } from '@hermes/plugin-sdk';
import { escapeMrkdwn } from './escape-mrkdwn.js';

/** A cell's visible text: bold, underline and code markers dropped. */
const cellText = (cell: string): string => cell.replace(/\*\*|__|`/g, '');

/** Renders header + rows (the separator line excluded) as a ``` block, columns padded to width. */
export function renderTable(header: string, rows: readonly string[]): string {
  const [head = '', rule = '', ...body] = layoutTable([header, ...rows].map((line) => tableCells(line).map(cellText)));
  return ['```', escapeMrkdwn(head), rule, ...body.map(escapeMrkdwn), '```'].join('\n');
}

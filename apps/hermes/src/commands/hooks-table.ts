/** Aligned text tables for the `hermes hooks` listings. */

/** Renders a header row and rows as aligned columns (the last column is not padded). */
export function renderTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const all = [headers, ...rows];
  const widths = headers.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  return all
    .map((r) =>
      r
        .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
        .join('  ')
        .trimEnd(),
    )
    .map((line) => `${line}\n`)
    .join('');
}

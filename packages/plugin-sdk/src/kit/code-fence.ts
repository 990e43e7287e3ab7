/**
 * Fenced code blocks in Markdown: where one ends. Each platform decides what opens a fence (and
 * keeps its info string) and how it renders the body; the closing rule is CommonMark's.
 */

const CLOSING_FENCE = /^ {0,3}(`{3,}|~{3,})\s*$/;

/** True when `line` closes a fence opened with `marker` (the same character, at least as many, nothing after). */
export function closesFence(line: string, marker: string): boolean {
  const close = CLOSING_FENCE.exec(line)?.[1];
  return close !== undefined && close[0] === marker[0] && close.length >= marker.length;
}

/**
 * The fence opened with `marker` on the line before `from`: its body lines and the index after it
 * (after the closing line, or lines.length when the fence is never closed).
 */
export function takeFenceBody(
  lines: readonly string[],
  from: number,
  marker: string,
): { body: string[]; closed: boolean; next: number } {
  for (let i = from; i < lines.length; i += 1) {
    if (closesFence(lines[i] ?? '', marker)) return { body: lines.slice(from, i), closed: true, next: i + 1 };
  }
  return { body: lines.slice(from), closed: false, next: lines.length };
}

/** Fenced blocks of a docs page whose first line is `// file: x` or `# file: x`, keyed by x, with that line removed. */
export function fileBlocks(markdown: string): Map<string, string> {
  const out = new Map<string, string>();
  const fence = /^```[^\n]*\n([\s\S]*?)^```[ \t]*$/gm;
  for (let m = fence.exec(markdown); m !== null; m = fence.exec(markdown)) {
    const body = m[1] ?? '';
    const marker = /^(?:\/\/|#) file: (\S+)\n/.exec(body);
    if (marker?.[1]) out.set(marker[1], body.slice(marker[0].length));
  }
  return out;
}

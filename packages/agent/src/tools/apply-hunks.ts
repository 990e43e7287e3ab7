/**
 * Applies the hunks of one file's unified diff to its text, exactly (trailing whitespace and CR
 * aside), each hunk where its context is found nearest to the line it names: a file changed
 * since the diff was made still takes it when the lines moved, and a hunk whose lines are not
 * there fails with where it looked and what it found, never a silent fuzzy match.
 */

/** One hunk as `diff`'s parsePatch gives it (lines keep their ' ', '-', '+' or '\' prefix). */
export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

export type HunkResult = { ok: true; text: string } | { ok: false; error: string };

const header = (h: Hunk) => `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`;
const loose = (line: string) => line.replace(/\s+$/, '');
const quote = (line: string | undefined) => (line === undefined ? 'the end of the file' : JSON.stringify(line));

/** Splits text into lines, remembering the line ending and whether the last line ends with one. */
function splitText(text: string): { lines: string[]; eol: string; finalEol: boolean } {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  if (text === '') return { lines: [], eol, finalEol: false };
  const finalEol = text.endsWith('\n');
  const lines = (finalEol ? text.slice(0, -1) : text).split('\n').map((l) => l.replace(/\r$/, ''));
  return { lines, eol, finalEol };
}

/** Where `before` matches in `lines` at or after `from`, nearest to `near`; exact first, then ignoring trailing spaces. */
function findBlock(lines: string[], before: string[], from: number, near: number): number {
  for (const same of [(a: string, b: string) => a === b, (a: string, b: string) => loose(a) === loose(b)]) {
    const fits = (at: number) =>
      before.every((line, i) => lines[at + i] !== undefined && same(lines[at + i] as string, line));
    const last = lines.length - before.length;
    for (let distance = 0; near - distance >= from || near + distance <= last; distance++) {
      if (near + distance <= last && near + distance >= from && fits(near + distance)) return near + distance;
      if (distance > 0 && near - distance >= from && near - distance <= last && fits(near - distance))
        return near - distance;
    }
  }
  return -1;
}

/** The first line of `before` that differs from the file at `at` (for the error). */
function firstMismatch(lines: string[], before: string[], at: number): string {
  for (let i = 0; i < before.length; i++) {
    if (loose(lines[at + i] ?? '\u0000') !== loose(before[i] as string)) {
      return `line ${at + i + 1} should be ${quote(before[i])} but is ${quote(lines[at + i])}`;
    }
  }
  return 'its lines are there but overlap an earlier hunk';
}

/** Applies `hunks` (in file order) to `text`; `name` is the file as the error shows it. */
export function applyHunks(text: string, hunks: readonly Hunk[], name: string): HunkResult {
  const { lines, eol, finalEol: hadFinalEol } = splitText(text);
  let finalEol = hadFinalEol || text === '';
  let delta = 0;
  let from = 0;
  for (const [index, hunk] of hunks.entries()) {
    const before: string[] = [];
    const after: string[] = [];
    for (const [i, line] of hunk.lines.entries()) {
      const kind = line[0];
      if (kind === ' ' || kind === '-') before.push(line.slice(1));
      if (kind === ' ' || kind === '+') after.push(line.slice(1));
      if (kind !== '\\') continue;
      // "\ No newline at end of file" after a line of the new side: the result ends without one;
      // after a removed line only: the old text lacked it, the new one has it
      const marked = hunk.lines[i - 1]?.[0];
      if (marked === '+' || marked === ' ') finalEol = false;
      else if (marked === '-' && !hunk.lines.slice(i + 1).some((l) => l[0] === '\\')) finalEol = true;
    }
    // a hunk that only adds (-N,0) inserts after line N
    const near = Math.max(0, (before.length === 0 ? hunk.oldStart : hunk.oldStart - 1) + delta);
    const at = before.length === 0 ? Math.min(near, lines.length) : findBlock(lines, before, from, near);
    if (at < 0) {
      const where = Math.min(Math.max(near, from), Math.max(0, lines.length - 1));
      return {
        ok: false,
        error: `hunk ${index + 1} of ${hunks.length} (${header(hunk)}) does not apply to ${name}: ${firstMismatch(lines, before, where)}, and its ${before.length} line(s) are nowhere else in the file after the previous hunk. Read the file again and make the diff from its current text.`,
      };
    }
    lines.splice(at, before.length, ...after);
    delta += after.length - before.length;
    from = at + after.length;
  }
  if (lines.length === 0) return { ok: true, text: '' };
  return { ok: true, text: lines.join(eol) + (finalEol ? eol : '') };
}

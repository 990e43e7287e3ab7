/**
 * Splits a long reply into chunks a platform accepts: at paragraph, then line, then word boundaries,
 * keeping ``` code fences whole when possible and closing/reopening them when a fence must be split.
 */

/** One fenced code block found in the window being cut. */
interface Fence {
  /** index of the first character of the opening fence line */
  start: number;
  /** index just past the opening fence line's text (its newline, or the text end) */
  openerEnd: number;
  /** index of the first character of the closing fence line, or Infinity when it lies beyond the window */
  closerStart: number;
  /** index just past the closing fence line's text, or Infinity */
  end: number;
  /** the opening line as written, e.g. "```ts" */
  opener: string;
  /** what closes it, e.g. "```" */
  closer: string;
}

interface Cut {
  chunk: string;
  rest: string;
}

const OPEN_FENCE = /^( {0,3})(`{3,}|~{3,})([^`\r\n]*)$/;
const BLANK_LINES_AT_START = /^(?:[ \t]*\r?\n)+/;
const PARAGRAPH_BREAK = /\r?\n[ \t]*\r?\n/;
const WINDOW_SLACK = 64;

function isClosingLine(line: string, marker: string): boolean {
  const match = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
  return match?.[1] !== undefined && match[1][0] === marker[0] && match[1].length >= marker.length;
}

/** Finds the fences whose opening line starts inside text[0, windowEnd). */
function findFences(text: string, windowEnd: number): Fence[] {
  const fences: Fence[] = [];
  let open: { start: number; openerEnd: number; opener: string; marker: string } | undefined;
  let lineStart = 0;
  while (lineStart < windowEnd && lineStart <= text.length) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? text.length : newline;
    const line = text.slice(lineStart, lineEnd).replace(/\r$/, '');
    if (open === undefined) {
      const match = OPEN_FENCE.exec(line);
      if (match?.[2] !== undefined) open = { start: lineStart, openerEnd: lineEnd, opener: line, marker: match[2] };
    } else if (isClosingLine(line, open.marker)) {
      fences.push({ ...open, closerStart: lineStart, end: lineEnd, closer: open.marker });
      open = undefined;
    }
    if (newline === -1) break;
    lineStart = newline + 1;
  }
  if (open !== undefined) fences.push({ ...open, closerStart: Infinity, end: Infinity, closer: open.marker });
  return fences;
}

/** The fence a cut at `at` would fall into (strictly between its opening line start and closing line end). */
function fenceAt(fences: readonly Fence[], at: number): Fence | undefined {
  return fences.find((fence) => fence.start < at && at < fence.end);
}

function trimTrailingSpace(text: string): string {
  return text.replace(/\s+$/, '');
}

/** Cuts at `at` outside any fence: boundary whitespace on both sides is dropped. */
function plainCut(text: string, at: number, dropLeading: RegExp): Cut | undefined {
  const chunk = trimTrailingSpace(text.slice(0, at));
  if (chunk === '') return undefined;
  return { chunk, rest: text.slice(at).replace(dropLeading, '') };
}

/** Cuts at `at` inside `fence`: the chunk closes the fence, the rest reopens it with the same opener. */
function fenceCut(text: string, at: number, fence: Fence, limit: number, dropLeading: RegExp): Cut | undefined {
  if (at <= fence.openerEnd || at >= fence.closerStart - 1) return undefined;
  const body = trimTrailingSpace(text.slice(0, at));
  if (body.length <= fence.openerEnd) return undefined; // nothing of the fence's content would stay
  const chunk = `${body}\n${fence.closer}`;
  if (chunk.length > limit) return undefined;
  const rest = `${fence.opener}\n${text.slice(at).replace(dropLeading, '')}`;
  if (rest.length >= text.length) return undefined; // no progress: the limit is too small for fence repair
  return { chunk, rest };
}

/** Every index in (0, end] where `pattern` (a non-empty pattern) matches in `window`, last first. */
function positions(window: string, pattern: RegExp, end: number): number[] {
  const found: number[] = [];
  const re = new RegExp(pattern.source, 'g');
  for (let match = re.exec(window); match !== null && match.index <= end; match = re.exec(window)) {
    if (match.index > 0) found.push(match.index);
  }
  return found.reverse();
}

/** The room needed to close the widest fence that a cut could land in. */
function fenceRoom(fences: readonly Fence[]): number {
  return fences.reduce((room, fence) => Math.max(room, fence.closer.length + 1), 0);
}

function firstOutside(text: string, at: number[], fences: readonly Fence[], drop: RegExp): Cut | undefined {
  for (const index of at) {
    if (fenceAt(fences, index) !== undefined) continue;
    const cut = plainCut(text, index, drop);
    if (cut !== undefined) return cut;
  }
  return undefined;
}

function firstInside(
  text: string,
  at: number[],
  fences: readonly Fence[],
  limit: number,
  drop: RegExp,
): Cut | undefined {
  for (const index of at) {
    const fence = fenceAt(fences, index);
    if (fence === undefined) continue;
    const cut = fenceCut(text, index, fence, limit, drop);
    if (cut !== undefined) return cut;
  }
  return undefined;
}

/** A cut at exactly `at` characters, not inside a surrogate pair, repairing a fence when it can. */
function hardCut(text: string, limit: number, fences: readonly Fence[]): Cut {
  const fitCut = (at: number): number => {
    const code = text.charCodeAt(at - 1);
    return at > 1 && code >= 0xd800 && code <= 0xdbff ? at - 1 : at;
  };
  const plainAt = fitCut(limit);
  const fence = fenceAt(fences, plainAt);
  if (fence !== undefined) {
    const at = fitCut(limit - fence.closer.length - 1);
    if (at > fence.openerEnd + 1) {
      const chunk = `${text.slice(0, at)}\n${fence.closer}`;
      const rest = `${fence.opener}\n${text.slice(at)}`;
      if (rest.length < text.length) return { chunk, rest };
    }
  }
  return { chunk: text.slice(0, plainAt), rest: text.slice(plainAt) };
}

/** Finds the best cut of `text` (longer than `limit`) into a first chunk of at most `limit` characters. */
function cutOnce(text: string, limit: number): Cut {
  const fences = findFences(text, limit + 1);
  const room = fenceRoom(fences);
  // a paragraph break starting within the limit may run past it, over its blank line
  const window = text.slice(0, limit + WINDOW_SLACK);
  const paragraphs = positions(window, PARAGRAPH_BREAK, limit);
  const lines = positions(window, /\r?\n/, limit);
  const words = positions(window, /[ \t]+/, limit);
  const linesInFence = lines.filter((index) => index <= limit - room);
  const wordsInFence = words.filter((index) => index <= limit - room);
  return (
    firstOutside(text, paragraphs, fences, BLANK_LINES_AT_START) ??
    firstOutside(text, lines, fences, BLANK_LINES_AT_START) ??
    firstInside(text, linesInFence, fences, limit, BLANK_LINES_AT_START) ??
    firstOutside(text, words, fences, /^\s+/) ??
    firstInside(text, wordsInFence, fences, limit, /^[ \t]+/) ??
    hardCut(text, limit, fences)
  );
}

/** Splits `text` into chunks of at most `limit` UTF-16 code units; blank text gives no chunks. */
export function splitMessage(text: string, limit: number): string[] {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`splitMessage: limit must be a positive integer`);
  const chunks: string[] = [];
  let rest = text;
  while (rest.trim() !== '') {
    if (rest.length <= limit) {
      chunks.push(rest);
      break;
    }
    const { chunk, rest: next } = cutOnce(rest, limit);
    if (chunk.trim() !== '') chunks.push(chunk);
    rest = next;
  }
  return chunks;
}

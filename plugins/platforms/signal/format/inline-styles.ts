/**
 * One line of inline Markdown written as Signal text with styles: `**bold**` / `__bold__`,
 * `*italic*` / `_italic_`, `~~strikethrough~~`, `||spoiler||` and `` `code` `` (monospace) lose
 * their markers and style what they enclose, nested as written; a code span is kept as written
 * (markers inside it stay text); `\*` is a literal star; links become `text (url)`. A marker
 * without its partner stays text. An opening marker is followed by a non-space, a closing one
 * preceded by one; neither touches a digit or its own character on the outside (`2*3*4` stays), and
 * `_` and `|` markers no letter either (`snake_case_name` stays), while `*` and `~` may sit inside a
 * word, as CommonMark's `*` may: Chinese or Japanese text has no spaces around what it stresses.
 */
import type { SignalTextStyle, StyledBuilder } from './styled-text.js';

const DELIMITERS: readonly { marker: string; style: SignalTextStyle }[] = [
  { marker: '**', style: 'BOLD' },
  { marker: '__', style: 'BOLD' },
  { marker: '~~', style: 'STRIKETHROUGH' },
  { marker: '||', style: 'SPOILER' },
  { marker: '*', style: 'ITALIC' },
  { marker: '_', style: 'ITALIC' },
];

const ESCAPABLE = /[!-/:-@[-`{-~]/;
const LETTER = /\p{L}/u;
const DIGIT = /\p{N}/u;
const SPACE = /\s/;
const LINK = /!?\[((?:[^[\]\\]|\\.)*)\]\(\s*((?:[^()\s]|\([^()\s]*\))+)(?:\s+"[^"]*")?\s*\)/y;
const AUTOLINK = /<((?:https?:\/\/|mailto:)[^\s<>]+)>/y;

/** A region of the line being read: [from, to) of `src`; its edges count as the line's edges. */
interface Region {
  src: string;
  from: number;
  to: number;
}

const charBefore = (r: Region, at: number): string => (at <= r.from ? '' : (r.src[at - 1] ?? ''));
const charAt = (r: Region, at: number): string => (at >= r.to ? '' : (r.src[at] ?? ''));

function runOf(r: Region, at: number, char: string): number {
  let end = at;
  while (end < r.to && r.src[end] === char) end += 1;
  return end - at;
}

/** The code span opening at `at` (a run of backticks closed by a run as long): its text and end. */
function codeSpanAt(r: Region, at: number): { code: string; end: number } | undefined {
  const ticks = runOf(r, at, '`');
  for (let i = at + ticks; i < r.to; ) {
    if (r.src[i] !== '`') {
      i += 1;
      continue;
    }
    const run = runOf(r, i, '`');
    if (run === ticks) {
      const code = r.src.slice(at + ticks, i);
      // CommonMark: one space each side is stripped when both are there and the code is not all spaces
      const trimmed = /^ [\s\S]*[^ ][\s\S]* $/.test(code) ? code.slice(1, -1) : code;
      return { code: trimmed, end: i + run };
    }
    i += run;
  }
  return undefined;
}

/** True when `char`, just outside a marker, keeps it from opening or closing. */
function blocks(char: string, marker: string): boolean {
  const own = marker[0] ?? '';
  if (char === own || char === '\\' || DIGIT.test(char)) return true;
  return (own === '_' || own === '|') && LETTER.test(char);
}

function opens(r: Region, at: number, marker: string): boolean {
  const before = charBefore(r, at);
  if (before !== '' && blocks(before, marker)) return false;
  const after = charAt(r, at + marker.length);
  return after !== '' && !SPACE.test(after) && (marker.length > 1 || after !== marker);
}

function closes(r: Region, at: number, marker: string): boolean {
  const before = charBefore(r, at);
  if (before === '' || SPACE.test(before) || (marker.length === 1 && before === marker)) return false;
  const after = charAt(r, at + marker.length);
  return after === '' || !blocks(after, marker);
}

/** Where the marker opened before `from` closes (code spans and escapes skipped), or -1. */
function closerOf(r: Region, from: number, marker: string): number {
  for (let i = from; i + marker.length <= r.to; ) {
    const char = r.src[i];
    if (char === '\\') {
      i += 2;
      continue;
    }
    if (char === '`') {
      i = codeSpanAt(r, i)?.end ?? i + runOf(r, i, '`');
      continue;
    }
    if (i > from && r.src.startsWith(marker, i) && closes(r, i, marker)) return i;
    i += 1;
  }
  return -1;
}

/** A link or image at `at`: its label rendered, then ` (url)` unless the label is the URL. */
function link(r: Region, at: number, out: StyledBuilder): number | undefined {
  LINK.lastIndex = at;
  const match = LINK.exec(r.src);
  const end = LINK.lastIndex;
  if (match === null || end > r.to) return undefined;
  const url = match[2] ?? '';
  const labelAt = r.src.indexOf('[', at) + 1;
  const start = out.text.length;
  render({ src: r.src, from: labelAt, to: labelAt + (match[1] ?? '').length }, out);
  const label = out.text.slice(start);
  if (label === '') out.append(url);
  else if (label !== url) out.append(` (${url})`);
  return end;
}

/** Renders the region into `out`. */
function render(r: Region, out: StyledBuilder): void {
  let i = r.from;
  next: while (i < r.to) {
    const char = r.src[i] ?? '';
    if (char === '\\' && i + 1 < r.to && ESCAPABLE.test(r.src[i + 1] ?? '')) {
      out.append(r.src[i + 1] ?? '');
      i += 2;
      continue;
    }
    if (char === '`') {
      const span = codeSpanAt(r, i);
      if (span === undefined) {
        const run = runOf(r, i, '`');
        out.append(r.src.slice(i, i + run));
        i += run;
      } else {
        out.styled('MONOSPACE', () => out.append(span.code));
        i = span.end;
      }
      continue;
    }
    if (char === '[' || (char === '!' && r.src[i + 1] === '[')) {
      const end = link(r, i, out);
      if (end !== undefined) {
        i = end;
        continue;
      }
    }
    if (char === '<') {
      AUTOLINK.lastIndex = i;
      const match = AUTOLINK.exec(r.src);
      if (match !== null && AUTOLINK.lastIndex <= r.to) {
        out.append(match[1] ?? '');
        i = AUTOLINK.lastIndex;
        continue;
      }
    }
    for (const { marker, style } of DELIMITERS) {
      if (!r.src.startsWith(marker, i) || !opens(r, i, marker)) continue;
      const inner = i + marker.length;
      const close = closerOf(r, inner, marker);
      if (close === -1) continue;
      out.styled(style, () => render({ src: r.src, from: inner, to: close }, out));
      i = close + marker.length;
      continue next;
    }
    out.append(char);
    i += 1;
  }
}

/** Writes one line of inline Markdown into `out`: its text, and its styles. */
export function renderInline(line: string, out: StyledBuilder): void {
  render({ src: line, from: 0, to: line.length }, out);
}

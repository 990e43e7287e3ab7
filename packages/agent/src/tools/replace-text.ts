/**
 * The search/replace form of `patch`: one exact text replaced, or every occurrence of it. An
 * ambiguous or missing text is an error that says where it was (or nearly was) found, so the
 * model can add context or copy the text exactly, instead of a wrong place being edited.
 */

export type ReplaceResult = { ok: true; text: string; count: number } | { ok: false; error: string };

/** 1-based line numbers where `needle` starts in `text`. */
function occurrenceLines(text: string, needle: string): number[] {
  const lines: number[] = [];
  let line = 1;
  let scanned = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) {
    for (let i = scanned; i < at; i++) if (text.charCodeAt(i) === 10) line++;
    scanned = at;
    lines.push(line);
  }
  return lines;
}

const squash = (s: string) =>
  s
    .split('\n')
    .map((l) => l.trim())
    .join('\n');

/** The first line where `needle` matches once leading and trailing spaces of every line are ignored. */
function nearMiss(text: string, needle: string): number | null {
  const want = squash(needle);
  const lines = text.split('\n');
  const size = needle.split('\n').length;
  for (let i = 0; i + size <= lines.length; i++) {
    if (squash(lines.slice(i, i + size).join('\n')) === want) return i + 1;
  }
  return null;
}

/** Replaces `oldText` by `newText` in `text` (every occurrence when `all`); `name` is the file as errors show it. */
export function replaceText(text: string, oldText: string, newText: string, all: boolean, name: string): ReplaceResult {
  if (oldText === '') return { ok: false, error: 'old_text is empty: give the exact text to replace' };
  // a file with CRLF line ends takes text written with \n
  const crlf = text.includes('\r\n') && !oldText.includes('\r\n');
  const needle = crlf ? oldText.replace(/\n/g, '\r\n') : oldText;
  const replacement = crlf ? newText.replace(/\n/g, '\r\n') : newText;
  const found = occurrenceLines(text, needle);
  if (found.length === 0) {
    const near = nearMiss(text.replace(/\r\n/g, '\n'), oldText);
    return {
      ok: false,
      error:
        near === null
          ? `old_text was not found in ${name}: read the file and copy the text to replace exactly`
          : `old_text was not found exactly in ${name}; the same lines with other indentation or spacing start at line ${near}: copy them exactly (spaces and tabs included)`,
    };
  }
  if (found.length > 1 && !all) {
    return {
      ok: false,
      error: `old_text occurs ${found.length} times in ${name} (lines ${found.join(', ')}): include more surrounding lines to make it unique, or set replace_all to replace every one`,
    };
  }
  return { ok: true, text: text.split(needle).join(replacement), count: found.length };
}

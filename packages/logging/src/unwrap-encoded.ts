/**
 * `base64` (76 columns) and `xxd -p` (60) wrap long output: a secret's encoding may be cut by a line
 * break. Before looking for encoded secrets again, such lines are joined.
 */

/** A line break (raw or JSON-escaped) right after 40 base64/hex characters, before another one. */
const WRAPPED_BREAK = /(?<=[A-Za-z0-9+/=_-]{40})(?:\r?\n|\\r\\n|\\n)(?=[A-Za-z0-9+/=_-])/g;
/** 40 base64 or hex characters in a row, tested at a given position (sticky). */
const ENCODED_RUN = /[A-Za-z0-9+/=_-]{40}/y;

function runEndsAt(text: string, end: number): boolean {
  if (end < 40) return false;
  ENCODED_RUN.lastIndex = end - 40;
  return ENCODED_RUN.test(text);
}

/** Does `text` hold a line break right after 40 base64/hex characters? Looks at the line breaks only. */
export function mayHoldWrappedEncoding(text: string): boolean {
  for (const lineBreak of ['\n', '\\n']) {
    for (let at = text.indexOf(lineBreak); at !== -1; at = text.indexOf(lineBreak, at + 1)) {
      let end = at;
      if (text[end - 1] === '\r') end -= 1;
      else if (text.startsWith('\\r', end - 2)) end -= 2;
      if (runEndsAt(text, end)) return true;
    }
  }
  return false;
}

/** `text` with the line breaks inside wrapped base64/hex output removed. */
export function unwrapEncoded(text: string): string {
  return text.replace(WRAPPED_BREAK, '');
}

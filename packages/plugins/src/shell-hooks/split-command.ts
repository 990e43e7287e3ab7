/**
 * POSIX-shell-style word splitting, without a shell (Python's `shlex.split`): whitespace separates
 * words; '…' is literal; "…" is literal except for \\ \" \$ \` and backslash-newline; an unquoted
 * backslash escapes the next character. No globbing, no $VAR, no pipes, no comments. An unquoted
 * leading `~` or `~/` of a word becomes the home directory.
 */

export class CommandSyntaxError extends Error {
  override readonly name = 'CommandSyntaxError';
}

export interface SplitOptions {
  /** the directory an unquoted leading `~` expands to; no expansion when unset */
  home?: string;
}

const SPACE = new Set([' ', '\t', '\n', '\r', '\f', '\v']);
const DOUBLE_QUOTE_ESCAPES = new Set(['\\', '"', '$', '`']);

/** Splits `command` into argv words; throws CommandSyntaxError on an unclosed quote or a trailing backslash. */
export function splitCommand(command: string, options: SplitOptions = {}): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  // true while the word so far is exactly an unquoted "~" (a candidate for home expansion)
  let tildeCandidate = false;
  const finish = () => {
    if (inWord) words.push(tildeCandidate && options.home !== undefined ? options.home : word);
    word = '';
    inWord = false;
    tildeCandidate = false;
  };

  let i = 0;
  while (i < command.length) {
    const c = command.charAt(i);
    if (SPACE.has(c)) {
      finish();
      i++;
      continue;
    }
    if (c === "'") {
      tildeCandidate = false;
      const end = command.indexOf("'", i + 1);
      if (end === -1) throw new CommandSyntaxError(`no closing quotation (') in ${JSON.stringify(command)}`);
      word += command.slice(i + 1, end);
      inWord = true;
      i = end + 1;
      continue;
    }
    if (c === '"') {
      tildeCandidate = false;
      inWord = true;
      i++;
      let closed = false;
      while (i < command.length) {
        const d = command.charAt(i);
        if (d === '"') {
          closed = true;
          i++;
          break;
        }
        if (d === '\\' && i + 1 < command.length) {
          const next = command.charAt(i + 1);
          if (next === '\n') {
            i += 2;
            continue;
          }
          if (DOUBLE_QUOTE_ESCAPES.has(next)) {
            word += next;
            i += 2;
            continue;
          }
        }
        word += d;
        i++;
      }
      if (!closed) throw new CommandSyntaxError(`no closing quotation (") in ${JSON.stringify(command)}`);
      continue;
    }
    if (c === '\\') {
      if (i + 1 >= command.length)
        throw new CommandSyntaxError(`nothing after the final backslash in ${JSON.stringify(command)}`);
      const next = command.charAt(i + 1);
      i += 2;
      if (next === '\n') continue; // line continuation
      tildeCandidate = false;
      word += next;
      inWord = true;
      continue;
    }
    if (c === '~' && !inWord) {
      tildeCandidate = true;
      word = '~';
      inWord = true;
      i++;
      continue;
    }
    // "~/…": the "~" typed so far becomes the home directory
    if (c === '/' && tildeCandidate && options.home !== undefined) word = options.home;
    tildeCandidate = false;
    word += c;
    inWord = true;
    i++;
  }
  finish();
  return words;
}

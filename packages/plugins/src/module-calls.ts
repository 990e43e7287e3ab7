/**
 * Points esbuild's CommonJS output at jiti's module functions: `import(x)` becomes `jitiImport(x)`
 * (jiti evaluates the code as a function body, where `import()` has no loader), and, for code jiti
 * imports asynchronously, each `require("x")` esbuild wrote for an import statement becomes
 * `(await jitiImport("x"))`, as jiti's own transform does (ES module packages then load natively).
 * Only calls in code are touched: strings, template text, comments and regular expressions are
 * skipped by a small scanner.
 */

export interface ModuleCallOptions {
  /** rewrite `require("x")` to `(await jitiImport("x"))` (only when every require in the code is an import's) */
  awaitImports: boolean;
}

const IDENT = /[\w$]/;
/** after one of these (or a keyword below), a `/` starts a regular expression, not a division */
const BEFORE_REGEX = new Set([...'(,=:[!&|?{};+-*%<>~^']);
const KEYWORDS_BEFORE_REGEX =
  /(?:^|[^\w$])(?:return|typeof|instanceof|in|of|new|delete|void|throw|case|do|else|yield|await)$/;
const REQUIRE_CALL = /^require\(("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')\)/;

/** index just past the quoted string starting at `i` */
function skipString(code: string, i: number): number {
  const quote = code[i];
  let j = i + 1;
  while (j < code.length && code[j] !== quote) {
    if (code[j] === '\\') j++;
    else if (code[j] === '\n') break;
    j++;
  }
  return j + 1;
}

/** index just past the regular expression literal starting at `i` */
function skipRegex(code: string, i: number): number {
  let j = i + 1;
  let inClass = false;
  while (j < code.length && code[j] !== '\n') {
    const c = code[j];
    if (c === '\\') j++;
    else if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    else if (c === '/' && !inClass) break;
    j++;
  }
  j++;
  while (j < code.length && IDENT.test(code[j] as string)) j++;
  return j;
}

function regexAllowed(code: string, i: number): boolean {
  let j = i - 1;
  while (j >= 0 && /\s/.test(code[j] as string)) j--;
  if (j < 0) return true;
  const c = code[j] as string;
  if (BEFORE_REGEX.has(c)) return true;
  return IDENT.test(c) && KEYWORDS_BEFORE_REGEX.test(code.slice(Math.max(0, j - 11), j + 1));
}

/** `code` with its module calls pointed at jiti (see the file comment). */
export function rewriteModuleCalls(code: string, options: ModuleCallOptions): string {
  let out = '';
  let copied = 0;
  // one entry per open template literal: the brace depth of the `${…}` being scanned (-1: in the text)
  const templates: number[] = [];
  let i = 0;
  const inTemplateText = () => templates.length > 0 && templates[templates.length - 1] === -1;
  while (i < code.length) {
    if (inTemplateText()) {
      const c = code[i];
      if (c === '\\') i += 2;
      else if (c === '`') {
        templates.pop();
        i++;
      } else if (c === '$' && code[i + 1] === '{') {
        templates[templates.length - 1] = 0;
        i += 2;
      } else i++;
      continue;
    }
    const c = code[i] as string;
    if (c === '"' || c === "'") i = skipString(code, i);
    else if (c === '`') {
      templates.push(-1);
      i++;
    } else if (c === '/' && code[i + 1] === '/') {
      const end = code.indexOf('\n', i);
      i = end < 0 ? code.length : end;
    } else if (c === '/' && code[i + 1] === '*') {
      const end = code.indexOf('*/', i + 2);
      i = end < 0 ? code.length : end + 2;
    } else if (c === '/' && regexAllowed(code, i)) i = skipRegex(code, i);
    else if (c === '{' || c === '}') {
      const top = templates.length - 1;
      if (top >= 0) {
        if (c === '{') templates[top] = (templates[top] as number) + 1;
        else if (templates[top] === 0) templates[top] = -1;
        else templates[top] = (templates[top] as number) - 1;
      }
      i++;
    } else if (IDENT.test(c)) {
      const start = i;
      while (i < code.length && IDENT.test(code[i] as string)) i++;
      const word = code.slice(start, i);
      // a member (`x.import(`), not a spread (`...require(`)
      const afterDot = code[start - 1] === '.' && code[start - 2] !== '.';
      if (afterDot || code[i] !== '(') continue;
      if (word === 'import') {
        out += `${code.slice(copied, start)}jitiImport`;
        copied = i;
      } else if (word === 'require' && options.awaitImports) {
        const call = REQUIRE_CALL.exec(code.slice(start, start + 1024));
        if (call) {
          out += `${code.slice(copied, start)}(await jitiImport(${call[1]}))`;
          i = start + call[0].length;
          copied = i;
        }
      }
    } else i++;
  }
  return out + code.slice(copied);
}

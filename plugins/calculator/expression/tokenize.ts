/** The tokenizer: numbers, names, operators, parentheses and commas, each with its offset. */
import { syntaxError } from './calc-error.js';

export type Operator = '+' | '-' | '*' | '/' | '%' | '**';

export type Token =
  | { kind: 'number'; value: number; text: string; pos: number }
  | { kind: 'name'; name: string; text: string; pos: number }
  | { kind: 'op'; op: Operator; text: string; pos: number }
  | { kind: '(' | ')' | ',' | 'end'; text: string; pos: number };

const NUMBER = /(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/y;
const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;

// longest spelling first; ^ is power as in most calculators, the Unicode signs are what models paste
const OPERATORS: [string, Operator][] = [
  ['**', '**'],
  ['^', '**'],
  ['+', '+'],
  ['-', '-'],
  ['\u2212', '-'],
  ['*', '*'],
  ['\u00d7', '*'],
  ['\u22c5', '*'],
  ['/', '/'],
  ['\u00f7', '/'],
  ['%', '%'],
];

// single-character names for constants
const SYMBOL_NAMES: Record<string, string> = { '\u03c0': 'pi', '\u03c4': 'tau' };

function match(re: RegExp, text: string, pos: number): string | null {
  re.lastIndex = pos;
  return re.exec(text)?.[0] ?? null;
}

/** Splits an expression into tokens, ending with an `end` token; throws a syntax error on a stray character. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let pos = 0;
  while (pos < text.length) {
    const ch = text[pos] ?? '';
    if (/\s/.test(ch)) {
      pos++;
      continue;
    }
    const number = match(NUMBER, text, pos);
    if (number !== null) {
      tokens.push({ kind: 'number', value: Number(number), text: number, pos });
      pos += number.length;
      continue;
    }
    const name = match(NAME, text, pos) ?? (SYMBOL_NAMES[ch] ? ch : null);
    if (name !== null) {
      tokens.push({ kind: 'name', name: SYMBOL_NAMES[name] ?? name, text: name, pos });
      pos += name.length;
      continue;
    }
    const operator = OPERATORS.find(([spelling]) => text.startsWith(spelling, pos));
    if (operator) {
      tokens.push({ kind: 'op', op: operator[1], text: operator[0], pos });
      pos += operator[0].length;
      continue;
    }
    if (ch === '(' || ch === ')' || ch === ',') {
      tokens.push({ kind: ch, text: ch, pos });
      pos++;
      continue;
    }
    throw syntaxError(pos, `unexpected character "${String.fromCodePoint(text.codePointAt(pos) ?? 0)}"`);
  }
  tokens.push({ kind: 'end', text: '', pos: text.length });
  return tokens;
}

/**
 * A Pratt (precedence-climbing) parser. Binding, loosest first: + - ; * / % ; unary + - ; ** (and ^),
 * right-associative. Power binds tighter than a unary minus on its left, as in Python and in
 * mathematics: -2**2 is -(2**2) = -4, while 2**-1 is 0.5 and 2**3**2 is 2**9 = 512.
 */
import type { ExprNode } from './ast.js';
import { CalcError, syntaxError } from './calc-error.js';
import { type Operator, type Token, tokenize } from './tokenize.js';

export const MAX_EXPRESSION_LENGTH = 1000;
export const MAX_NESTING_DEPTH = 100;

const BINDING: Record<Operator, number> = { '+': 10, '-': 10, '*': 20, '/': 20, '%': 20, '**': 40 };
const UNARY_BINDING = 30;

function describe(token: Token): string {
  return token.kind === 'end' ? 'end of expression' : `"${token.text}"`;
}

class Parser {
  readonly #tokens: Token[];
  #index = 0;

  constructor(tokens: Token[]) {
    this.#tokens = tokens;
  }

  peek(): Token {
    return this.#tokens[this.#index] ?? this.#tokens[this.#tokens.length - 1]!;
  }

  next(): Token {
    const token = this.peek();
    if (token.kind !== 'end') this.#index++;
    return token;
  }

  /** Fails unless the next token is `kind`; the message hints at the missing `*` after an operand. */
  expect(kind: Token['kind'], wanted: string): Token {
    const token = this.peek();
    if (token.kind === kind) return this.next();
    const hint = token.kind === 'number' || token.kind === 'name' || token.kind === '(' ? ' (use * to multiply)' : '';
    throw syntaxError(token.pos, `expected ${wanted} but found ${describe(token)}${hint}`);
  }

  expression(minBinding: number, depth: number): ExprNode {
    if (depth > MAX_NESTING_DEPTH) {
      throw new CalcError(`Expression is nested too deeply (more than ${MAX_NESTING_DEPTH} levels)`);
    }
    let left = this.prefix(depth);
    for (;;) {
      const token = this.peek();
      if (token.kind !== 'op' || BINDING[token.op] <= minBinding) return left;
      this.next();
      const binding = BINDING[token.op];
      const right = this.expression(token.op === '**' ? binding - 1 : binding, depth + 1);
      left = { type: 'binary', op: token.op, left, right, pos: token.pos };
    }
  }

  prefix(depth: number): ExprNode {
    const token = this.next();
    switch (token.kind) {
      case 'number':
        return { type: 'number', value: token.value, pos: token.pos };
      case 'name':
        if (this.peek().kind !== '(') return { type: 'name', name: token.name, pos: token.pos };
        this.next();
        return { type: 'call', name: token.name, args: this.arguments(depth), pos: token.pos };
      case 'op':
        if (token.op === '+' || token.op === '-') {
          return { type: 'unary', op: token.op, operand: this.expression(UNARY_BINDING, depth + 1), pos: token.pos };
        }
        throw syntaxError(token.pos, `expected a number, name or "(" but found ${describe(token)}`);
      case '(': {
        const inner = this.expression(0, depth + 1);
        this.expect(')', '")"');
        return inner;
      }
      default:
        throw syntaxError(token.pos, `expected a number, name or "(" but found ${describe(token)}`);
    }
  }

  arguments(depth: number): ExprNode[] {
    const args: ExprNode[] = [];
    if (this.peek().kind === ')') {
      this.next();
      return args;
    }
    for (;;) {
      args.push(this.expression(0, depth + 1));
      if (this.peek().kind !== ',') break;
      this.next();
    }
    this.expect(')', '"," or ")"');
    return args;
  }
}

/** Parses an expression into a tree; throws CalcError for a syntax error, an over-long or over-nested input. */
export function parse(text: string): ExprNode {
  if (text.length > MAX_EXPRESSION_LENGTH) {
    throw new CalcError(`Expression is too long (${text.length} characters; the limit is ${MAX_EXPRESSION_LENGTH})`);
  }
  const parser = new Parser(tokenize(text));
  if (parser.peek().kind === 'end') throw new CalcError('No expression provided');
  const tree = parser.expression(0, 1);
  parser.expect('end', 'an operator or the end of the expression');
  return tree;
}

/** Walks the syntax tree to a number; every intermediate value must be a finite real number. */
import type { ExprNode } from './ast.js';
import { CalcError } from './calc-error.js';
import { CONSTANTS, FUNCTIONS } from './math-library.js';
import { applyOperator } from './operators.js';

function finite(value: number, what: string): number {
  if (Number.isNaN(value)) throw new CalcError(`Result is not a real number (${what})`);
  if (!Number.isFinite(value)) throw new CalcError(`Result is not finite: ${what} overflows`);
  return value;
}

function lookup(name: string, pos: number): number {
  const key = name.toLowerCase();
  const value = CONSTANTS[key];
  if (value !== undefined) return value;
  if (FUNCTIONS[key])
    throw new CalcError(`"${name}" at position ${pos + 1} is a function: call it like ${FUNCTIONS[key].usage}`);
  throw new CalcError(
    `Unknown identifier "${name}" at position ${pos + 1} (constants: ${Object.keys(CONSTANTS).join(', ')})`,
  );
}

function call(name: string, args: number[], pos: number): number {
  const key = name.toLowerCase();
  const fn = FUNCTIONS[key];
  if (!fn) {
    if (CONSTANTS[key] !== undefined)
      throw new CalcError(`"${name}" at position ${pos + 1} is a constant, not a function`);
    throw new CalcError(
      `Unknown function "${name}" at position ${pos + 1} (functions: ${Object.keys(FUNCTIONS).join(', ')})`,
    );
  }
  if (args.length < fn.min || args.length > fn.max) {
    const count =
      fn.min === fn.max
        ? `${fn.min}`
        : fn.max === Number.POSITIVE_INFINITY
          ? `at least ${fn.min}`
          : `${fn.min} or ${fn.max}`;
    const noun = fn.max === 1 || (fn.min === 1 && fn.max === Number.POSITIVE_INFINITY) ? 'argument' : 'arguments';
    throw new CalcError(`${key}() takes ${count} ${noun}, got ${args.length}: use ${fn.usage}`);
  }
  return finite(fn.apply(args), `${key}()`);
}

/** Evaluates a parsed expression; throws CalcError for unknown names, wrong arity, division by zero, non-finite values. */
export function evaluate(node: ExprNode): number {
  switch (node.type) {
    case 'number':
      return finite(node.value, `the number at position ${node.pos + 1}`);
    case 'name':
      return lookup(node.name, node.pos);
    case 'unary': {
      const value = evaluate(node.operand);
      return node.op === '-' ? -value : value;
    }
    case 'binary': {
      const left = evaluate(node.left);
      const right = evaluate(node.right);
      return finite(applyOperator(node.op, left, right), `"${node.op}" at position ${node.pos + 1}`);
    }
    case 'call':
      return call(node.name, node.args.map(evaluate), node.pos);
  }
}

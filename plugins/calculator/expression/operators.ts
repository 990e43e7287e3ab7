/** The arithmetic of the binary operators, with the checks Python's float arithmetic would raise. */
import { addWithoutNoise } from '../number-noise.js';
import { CalcError } from './calc-error.js';
import type { Operator } from './tokenize.js';

function floorMod(a: number, b: number): number {
  const r = a % b;
  return r !== 0 && r < 0 !== b < 0 ? r + b : r;
}

/** Applies `op`; `%` is floored like Python's (the sign of the divisor): -7 % 3 is 2. */
export function applyOperator(op: Operator, a: number, b: number): number {
  switch (op) {
    case '+':
      return addWithoutNoise(a, b);
    case '-':
      return addWithoutNoise(a, -b);
    case '*':
      return a * b;
    case '/':
      if (b === 0) throw new CalcError('Division by zero');
      return a / b;
    case '%':
      if (b === 0) throw new CalcError('Modulo by zero');
      return floorMod(a, b);
    case '**':
      if (a === 0 && b < 0) throw new CalcError('Division by zero (0 raised to a negative power)');
      return a ** b;
  }
}

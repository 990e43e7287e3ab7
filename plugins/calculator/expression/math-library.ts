/** The constants and functions an expression may use; angles are in radians. */
import { CalcError } from './calc-error.js';
import { applyOperator } from './operators.js';

export const CONSTANTS: Readonly<Record<string, number>> = { pi: Math.PI, e: Math.E, tau: 2 * Math.PI };

export interface MathFunction {
  /** fewest and most arguments (Infinity: variadic) */
  min: number;
  max: number;
  /** how to call it, for error messages */
  usage: string;
  apply(args: number[]): number;
}

// sin(pi) is 1.2e-16 in binary floating point: a periodic result that tiny next to its argument is 0
const PERIODIC_NOISE = 1e-12;

function periodic(fn: (x: number) => number): (args: number[]) => number {
  return ([x = 0]) => {
    const y = fn(x);
    return Math.abs(x) >= 1 && Math.abs(y) < PERIODIC_NOISE * Math.abs(x) ? 0 : y;
  };
}

function domain(name: string, problem: string): CalcError {
  return new CalcError(`Math domain error: ${name}() ${problem}`);
}

function unary(usage: string, fn: (x: number) => number): MathFunction {
  return { min: 1, max: 1, usage, apply: ([x = 0]) => fn(x) };
}

function positive(name: string, fn: (x: number) => number): (x: number) => number {
  return (x) => {
    if (x <= 0) throw domain(name, 'needs a positive argument');
    return fn(x);
  };
}

function logarithm([x = 0, base]: number[]): number {
  if (x <= 0) throw domain('log', 'needs a positive argument');
  if (base === undefined) return Math.log(x);
  if (base <= 0 || base === 1) throw domain('log', 'needs a positive base other than 1');
  return Math.log(x) / Math.log(base);
}

function roundTo([x = 0, digits = 0]: number[]): number {
  if (!Number.isInteger(digits) || digits < -15 || digits > 15) {
    throw new CalcError('round() digits must be a whole number between -15 and 15');
  }
  // half away from zero: round(2.5) = 3, round(-2.5) = -3; toFixed rounds the exact binary value
  if (digits >= 0) return Number(x.toFixed(digits));
  const scale = 10 ** -digits;
  return Math.sign(x) * Math.round(Math.abs(x) / scale) * scale;
}

function factorial([n = 0]: number[]): number {
  if (!Number.isInteger(n) || n < 0) throw domain('factorial', 'needs a non-negative whole number');
  if (n > 170) throw new CalcError('factorial() is limited to n <= 170 (larger results overflow)');
  let result = 1;
  for (let i = 2; i <= n; i++) result *= i;
  return result;
}

export const FUNCTIONS: Readonly<Record<string, MathFunction>> = {
  sqrt: unary('sqrt(x)', (x) => {
    if (x < 0) throw domain('sqrt', 'needs a non-negative argument');
    return Math.sqrt(x);
  }),
  sin: { min: 1, max: 1, usage: 'sin(radians)', apply: periodic(Math.sin) },
  cos: { min: 1, max: 1, usage: 'cos(radians)', apply: periodic(Math.cos) },
  tan: {
    min: 1,
    max: 1,
    usage: 'tan(radians)',
    apply: periodic((x) => {
      if (Math.abs(Math.cos(x)) < PERIODIC_NOISE * Math.max(1, Math.abs(x))) {
        throw domain('tan', 'is undefined at odd multiples of pi/2');
      }
      return Math.tan(x);
    }),
  },
  asin: unary('asin(x) with -1 <= x <= 1', (x) => {
    if (x < -1 || x > 1) throw domain('asin', 'needs an argument between -1 and 1');
    return Math.asin(x);
  }),
  acos: unary('acos(x) with -1 <= x <= 1', (x) => {
    if (x < -1 || x > 1) throw domain('acos', 'needs an argument between -1 and 1');
    return Math.acos(x);
  }),
  atan: unary('atan(x)', Math.atan),
  log: { min: 1, max: 2, usage: 'log(x) or log(x, base)', apply: logarithm },
  log10: unary('log10(x)', positive('log10', Math.log10)),
  log2: unary('log2(x)', positive('log2', Math.log2)),
  exp: unary('exp(x)', Math.exp),
  abs: unary('abs(x)', Math.abs),
  round: { min: 1, max: 2, usage: 'round(x) or round(x, digits)', apply: roundTo },
  floor: unary('floor(x)', Math.floor),
  ceil: unary('ceil(x)', Math.ceil),
  min: { min: 1, max: Number.POSITIVE_INFINITY, usage: 'min(a, b, ...)', apply: (args) => Math.min(...args) },
  max: { min: 1, max: Number.POSITIVE_INFINITY, usage: 'max(a, b, ...)', apply: (args) => Math.max(...args) },
  pow: { min: 2, max: 2, usage: 'pow(x, y)', apply: ([x = 0, y = 0]) => applyOperator('**', x, y) },
  hypot: { min: 1, max: Number.POSITIVE_INFINITY, usage: 'hypot(a, b, ...)', apply: (args) => Math.hypot(...args) },
  factorial: { min: 1, max: 1, usage: 'factorial(n) with a whole n from 0 to 170', apply: factorial },
};

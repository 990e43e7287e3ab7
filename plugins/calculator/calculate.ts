/** The calculate tool handler: `{expression}` → `{expression, result}` or `{expression, error}`. */

import { CalcError } from './expression/calc-error.js';
import { evaluate } from './expression/evaluate.js';
import { parse } from './expression/parse.js';
import { cleanNumber } from './number-noise.js';
import { errorMessage, toolResult } from './tool-result.js';

/** Parses and evaluates a math expression (no eval); every problem comes back as `{"error": ...}`, never thrown. */
export function calculate(args: Record<string, unknown>): string {
  const raw = typeof args.expression === 'number' ? String(args.expression) : args.expression;
  if (typeof raw !== 'string' || raw.trim() === '') return toolResult({ error: 'No expression provided' });
  const expression = raw.trim();
  try {
    return toolResult({ expression, result: cleanNumber(evaluate(parse(expression))) });
  } catch (err) {
    const message = err instanceof CalcError ? err.message : `Invalid expression: ${errorMessage(err)}`;
    return toolResult({ expression: expression.slice(0, 200), error: message });
  }
}

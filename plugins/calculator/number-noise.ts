/** Binary floating-point noise: removed before a number reaches the model. */

/** Significant digits kept in results: 0.1 * 3 gives 0.3, 10 / 3 gives 3.33333333333. */
export const SIGNIFICANT_DIGITS = 12;

// a sum within a few ulps of its operands is cancellation noise: 0.1 + 0.2 - 0.3 is 0, not 5.55e-17
const CANCELLATION = 4 * Number.EPSILON;

/** Integers pass unchanged (2**60 and factorial(20) stay exact); others keep 12 significant digits; -0 becomes 0. */
export function cleanNumber(value: number): number {
  if (Number.isInteger(value)) return value === 0 ? 0 : value;
  if (!Number.isFinite(value)) return value;
  const rounded = Number(value.toPrecision(SIGNIFICANT_DIGITS));
  return rounded === 0 ? 0 : rounded;
}

/** `a + b`, exactly 0 when the sum is within rounding error of its operands (1e15 + 1 - 1e15 stays 1). */
export function addWithoutNoise(a: number, b: number): number {
  const sum = a + b;
  return sum !== 0 && Math.abs(sum) <= CANCELLATION * Math.max(Math.abs(a), Math.abs(b)) ? 0 : sum;
}

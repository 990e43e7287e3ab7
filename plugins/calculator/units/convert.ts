/** The conversion arithmetic: through the category's base unit, so temperatures go via Celsius. */
import { addWithoutNoise } from '../number-noise.js';
import type { Unit, UnitTable } from './unit-table.js';

export type ConvertResult = { value: number } | { error: string };

// tolerance for the minimum check, so -459.67 F is absolute zero despite binary rounding
const TOLERANCE = 1e-9;

/** Converts `value` between two units of one category; the error for two categories names both. */
export function convert(table: UnitTable, value: number, from: Unit, to: Unit): ConvertResult {
  if (from.category !== to.category) {
    return {
      error: `Cannot convert ${from.symbol} (${from.category}) to ${to.symbol} (${to.category}): they measure different things`,
    };
  }
  const base = addWithoutNoise(value, -from.offset) * from.factor;
  const category = table.categories.find((c) => c.name === from.category);
  if (category && category.minimum !== null && base < category.minimum - TOLERANCE) {
    return {
      error: `${value} ${from.symbol} is below the lowest possible ${category.name} (${category.minimum} ${category.base})`,
    };
  }
  return { value: addWithoutNoise(base / to.factor, to.offset) };
}

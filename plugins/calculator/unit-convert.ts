/** The unit_convert tool handler: `{value, from_unit, to_unit}` → `{value, from_unit, to_unit, result}`. */
import { cleanNumber } from './number-noise.js';
import { errorMessage, toolResult } from './tool-result.js';
import { convert } from './units/convert.js';
import { findUnit } from './units/find-unit.js';
import { UNITS } from './units/unit-table.js';

function readValue(raw: unknown): number | null {
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : null;
  if (typeof raw === 'string' && raw.trim() !== '') {
    const n = Number(raw.trim());
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/** Converts a value between units; every problem comes back as `{"error": ...}`, never thrown. */
export function unitConvert(args: Record<string, unknown>): string {
  try {
    const value = readValue(args.value);
    if (value === null) return toolResult({ error: 'value must be a finite number' });
    const { from_unit: fromText, to_unit: toText } = args;
    if (typeof fromText !== 'string' || fromText.trim() === '' || typeof toText !== 'string' || toText.trim() === '') {
      return toolResult({ error: 'Need value, from_unit and to_unit' });
    }
    const from = findUnit(UNITS, fromText);
    if ('error' in from) return toolResult({ error: from.error });
    const to = findUnit(UNITS, toText);
    if ('error' in to) return toolResult({ error: to.error });
    const converted = convert(UNITS, value, from.unit, to.unit);
    if ('error' in converted) return toolResult({ error: converted.error });
    return toolResult({
      value,
      from_unit: from.unit.symbol,
      to_unit: to.unit.symbol,
      result: cleanNumber(converted.value),
    });
  } catch (err) {
    return toolResult({ error: `Conversion failed: ${errorMessage(err)}` });
  }
}

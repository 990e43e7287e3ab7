/** Resolves what the model typed ("km", "Kilometers", "°F") to a unit of the table. */
import type { Unit, UnitTable } from './unit-table.js';

export type FindResult = { unit: Unit } | { error: string };

function normalise(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}

function catalogue(table: UnitTable): string {
  return table.categories.map((c) => `${c.name} (${c.units.map((u) => u.symbol).join(', ')})`).join('; ');
}

/** Exact spelling first, then case-insensitive when only one unit matches; errors list the known units. */
export function findUnit(table: UnitTable, text: string): FindResult {
  const spelling = normalise(text);
  const exact = table.exact.get(spelling);
  if (exact) return { unit: exact };
  const folded = table.folded.get(spelling.toLowerCase()) ?? [];
  const [only] = folded;
  if (folded.length === 1 && only) return { unit: only };
  if (folded.length > 1) {
    return { error: `Ambiguous unit "${spelling}": did you mean ${folded.map((u) => u.symbol).join(' or ')}?` };
  }
  return { error: `Unknown unit "${spelling}". Known units: ${catalogue(table)}` };
}

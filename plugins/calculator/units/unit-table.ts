/**
 * The unit table of data/units.json, read once at import time (relative to this file, so it works
 * under jiti from any plugin folder), indexed by symbol and alias.
 */
import { readFileSync } from 'node:fs';

/** One unit: its value in the category's base unit is (value - offset) * factor. */
export interface Unit {
  symbol: string;
  category: string;
  factor: number;
  offset: number;
}

export interface Category {
  name: string;
  base: string;
  /** lowest valid value in base units (absolute zero for temperature) */
  minimum: number | null;
  units: Unit[];
}

export interface UnitTable {
  categories: Category[];
  /** exact spelling → unit */
  exact: Map<string, Unit>;
  /** lower-case spelling → every unit spelled so */
  folded: Map<string, Unit[]>;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readUnit(category: string, symbol: string, raw: unknown, where: string): { unit: Unit; aliases: string[] } {
  if (!isObject(raw) || typeof raw.factor !== 'number' || !(raw.factor > 0)) {
    throw new Error(`${where}: ${category}.${symbol}: needs a positive "factor"`);
  }
  const offset = raw.offset ?? 0;
  if (typeof offset !== 'number') throw new Error(`${where}: ${category}.${symbol}: "offset" must be a number`);
  const aliases = raw.aliases ?? [];
  if (!Array.isArray(aliases) || !aliases.every((a): a is string => typeof a === 'string')) {
    throw new Error(`${where}: ${category}.${symbol}: "aliases" must be a list of strings`);
  }
  return { unit: { symbol, category, factor: raw.factor, offset }, aliases };
}

/** Builds the indexed table from parsed JSON; throws naming the entry when the data is malformed. */
export function buildUnitTable(data: unknown, where = 'units.json'): UnitTable {
  if (!isObject(data)) throw new Error(`${where}: expected an object of categories`);
  const table: UnitTable = { categories: [], exact: new Map(), folded: new Map() };
  for (const [name, raw] of Object.entries(data)) {
    if (name.startsWith('$')) continue;
    if (!isObject(raw) || typeof raw.base !== 'string' || !isObject(raw.units)) {
      throw new Error(`${where}: ${name}: needs "base" and "units"`);
    }
    const minimum = typeof raw.minimum === 'number' ? raw.minimum : null;
    const category: Category = { name, base: raw.base, minimum, units: [] };
    for (const [symbol, rawUnit] of Object.entries(raw.units)) {
      const { unit, aliases } = readUnit(name, symbol, rawUnit, where);
      category.units.push(unit);
      for (const spelling of [symbol, ...aliases]) {
        const taken = table.exact.get(spelling);
        if (taken) throw new Error(`${where}: "${spelling}" names both ${taken.symbol} and ${symbol}`);
        table.exact.set(spelling, unit);
        const key = spelling.toLowerCase();
        const same = table.folded.get(key) ?? [];
        if (!same.includes(unit)) same.push(unit);
        table.folded.set(key, same);
      }
    }
    if (!category.units.some((u) => u.symbol === category.base)) {
      throw new Error(`${where}: ${name}: base unit "${category.base}" is not one of its units`);
    }
    table.categories.push(category);
  }
  return table;
}

/** The bundled table: data/units.json next to this plugin. */
export const UNITS: UnitTable = buildUnitTable(
  JSON.parse(readFileSync(new URL('../data/units.json', import.meta.url), 'utf8')),
  'data/units.json',
);

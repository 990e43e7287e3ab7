// The unit_convert tool of the bundled calculator plugin, called through the tool registry after a real load.
import { fileURLToPath } from 'node:url';
import { ToolRegistry } from '@hermes/agent';
import { HookBus, loadPlugins } from '@hermes/plugins';
import { silentLogger } from '@hermes/protocol';
import { beforeAll, describe, expect, it } from 'vitest';

const PLUGINS = fileURLToPath(new URL('../../plugins', import.meta.url));

interface Converted {
  value?: number;
  from_unit?: string;
  to_unit?: string;
  result?: number;
  error?: string;
}

let convert: (value: unknown, from: unknown, to: unknown) => Promise<Converted>;

beforeAll(async () => {
  const tools = new ToolRegistry();
  await loadPlugins({
    dirs: [{ dir: PLUGINS, source: 'bundled' }],
    enabled: ['calculator'],
    disabled: [],
    env: {},
    tools,
    hooks: new HookBus(),
    logger: silentLogger,
  });
  const tool = tools.get('unit_convert');
  if (!tool) throw new Error('unit_convert was not registered');
  convert = async (value, from_unit, to_unit) => {
    const out = await tool.handler({ value, from_unit, to_unit }, {} as never);
    expect(typeof out).toBe('string');
    return JSON.parse(out as string);
  };
});

async function result(value: unknown, from: string, to: string): Promise<number | undefined> {
  const out = await convert(value, from, to);
  expect(out.error, `${value} ${from} → ${to}`).toBeUndefined();
  return out.result;
}

describe('unit_convert', () => {
  it("holds the guide's examples", async () => {
    expect(await convert(100, 'F', 'C')).toEqual({ value: 100, from_unit: 'F', to_unit: 'C', result: 37.7777777778 });
    expect((await result(100, 'fahrenheit', 'celsius'))?.toFixed(2)).toBe('37.78');
    expect((await result(5, 'km', 'mi'))?.toFixed(2)).toBe('3.11');
    // SI/IEC table: GB and TB are powers of 1000, GiB and TiB powers of 1024
    expect(await result(1.5, 'TB', 'GB')).toBe(1500);
    expect(await result(1.5, 'terabytes', 'gigabytes')).toBe(1500);
    expect(await result(1.5, 'TiB', 'GiB')).toBe(1536);
    expect(await result(1.5, 'TB', 'GiB')).toBe(1396.98386192);
  });

  it('names the canonical units it used', async () => {
    expect(await convert(2, 'Kilometers', 'MILES')).toMatchObject({ from_unit: 'km', to_unit: 'mi' });
    expect(await convert(1, '°F', 'kelvin')).toMatchObject({ from_unit: 'F', to_unit: 'K' });
    expect(await convert(1, ' fl  oz ', 'mL')).toMatchObject({ from_unit: 'floz', to_unit: 'mL' });
  });

  it.each([
    // length
    [1, 'mi', 'km', 1.609344],
    [12, 'in', 'ft', 1],
    [3, 'ft', 'yd', 1],
    [1, 'm', 'cm', 100],
    [1, 'nmi', 'm', 1852],
    [1, 'nm', 'm', 1e-9],
    // mass
    [1, 'kg', 'lb', 2.20462262185],
    [16, 'oz', 'lb', 1],
    [1, 't', 'kg', 1000],
    [14, 'lb', 'st', 1],
    // temperature via Celsius
    [0, 'C', 'F', 32],
    [100, 'C', 'F', 212],
    [-40, 'C', 'F', -40],
    [0, 'K', 'C', -273.15],
    [-459.67, 'F', 'K', 0],
    [32, 'F', 'K', 273.15],
    [0, 'R', 'K', 0],
    [25, 'C', 'C', 25],
    // data
    [1, 'GB', 'MB', 1000],
    [1, 'GiB', 'MiB', 1024],
    [1, 'B', 'bit', 8],
    [100, 'Mbit', 'MB', 12.5],
    [1, 'kb', 'b', 1000],
    // time
    [1, 'h', 'min', 60],
    [1, 'day', 'hours', 24],
    [1, 'week', 'd', 7],
    [1, 'year', 'day', 365.25],
    [1500, 'ms', 's', 1.5],
    // volume
    [1, 'gal', 'L', 3.785411784],
    [1, 'L', 'mL', 1000],
    [3, 'tsp', 'tbsp', 1],
    [2, 'cup', 'pt', 1],
    // area and speed
    [1, 'ha', 'm2', 10000],
    [640, 'acre', 'mi2', 1],
    [100, 'km/h', 'm/s', 27.7777777778],
    [60, 'mph', 'km/h', 96.56064],
    [1, 'kn', 'km/h', 1.852],
  ])('%d %s → %s = %d', async (value, from, to, expected) => {
    expect(await result(value, from, to)).toBe(expected);
  });

  it('accepts a numeric string value', async () => {
    expect(await result('5', 'km', 'm')).toBe(5000);
  });

  it('refuses units of different categories, naming both', async () => {
    const out = await convert(1, 'kg', 'km');
    expect(out.result).toBeUndefined();
    expect(out.error).toMatch(/kg \(mass\).*km \(length\)/);
    expect((await convert(1, 'C', 'GB')).error).toMatch(/temperature.*data/);
  });

  it('refuses unknown units, listing what it knows', async () => {
    const out = await convert(1, 'parsec', 'm');
    expect(out.error).toMatch(/Unknown unit "parsec"/);
    expect(out.error).toMatch(/length \(.*km.*\)/);
    expect((await convert(1, 'm', 'cubits')).error).toMatch(/Unknown unit "cubits"/);
  });

  it('refuses temperatures below absolute zero', async () => {
    expect((await convert(-500, 'F', 'C')).error).toMatch(/below the lowest possible temperature/);
    expect((await convert(-1, 'K', 'C')).error).toMatch(/below/);
  });

  it('refuses bad arguments without throwing', async () => {
    for (const value of [undefined, null, 'abc', '', Number.NaN, Number.POSITIVE_INFINITY, {}]) {
      expect((await convert(value, 'm', 'km')).error).toMatch(/value must be a finite number/);
    }
    expect((await convert(1, '', 'km')).error).toMatch(/Need value, from_unit and to_unit/);
    expect((await convert(1, 'm', 42)).error).toMatch(/Need value, from_unit and to_unit/);
  });
});

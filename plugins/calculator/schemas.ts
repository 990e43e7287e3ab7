/** Tool schemas: what the model reads to decide when and how to call each tool. */
import type { ToolSchema } from '@hermes/plugin-sdk';

export const CALCULATE_SCHEMA: ToolSchema = {
  name: 'calculate',
  description:
    'Evaluate a mathematical expression and return the exact numeric result. Use it for any arithmetic ' +
    'instead of computing in your head. Operators: + - * / % and ** (or ^) for powers, parentheses; ' +
    '-2**2 is -4 (power binds first). Functions: sqrt, sin, cos, tan, asin, acos, atan (radians), ' +
    'log(x) natural or log(x, base), log10, log2, exp, abs, round(x, digits), floor, ceil, min, max, pow, ' +
    'hypot, factorial. Constants: pi, e, tau.',
  parameters: {
    type: 'object',
    properties: {
      expression: {
        type: 'string',
        description: "Math expression to evaluate, e.g. '2**16', 'sqrt(144)', 'pi * 5**2', 'log(8, 2)'",
      },
    },
    required: ['expression'],
  },
};

export const UNIT_CONVERT_SCHEMA: ToolSchema = {
  name: 'unit_convert',
  description:
    'Convert a value between units of the same kind. Length (mm, cm, m, km, in, ft, yd, mi, nmi), ' +
    'mass/weight (mg, g, kg, t, oz, lb, st), temperature (C, F, K), data (B, KB, MB, GB, TB = powers of 1000; ' +
    'KiB, MiB, GiB, TiB = powers of 1024; bit, Mbit), time (ms, s, min, h, day, week, year), ' +
    'volume (mL, L, tsp, tbsp, floz, cup, pt, qt, gal: US), area (m2, km2, ha, acre, ft2) and speed ' +
    '(m/s, km/h, mph, kn). Full names such as kilometers or fahrenheit work too.',
  parameters: {
    type: 'object',
    properties: {
      value: { type: 'number', description: 'The numeric value to convert' },
      from_unit: { type: 'string', description: "Source unit, e.g. 'km', 'lb', 'F', 'GB'" },
      to_unit: { type: 'string', description: "Target unit, e.g. 'mi', 'kg', 'C', 'MB'" },
    },
    required: ['value', 'from_unit', 'to_unit'],
  },
};

// The calculate tool of the bundled calculator plugin, called through the tool registry after a real load.
import { fileURLToPath } from 'node:url';
import { ToolRegistry } from '@hermes/agent';
import { HookBus, loadPlugins } from '@hermes/plugins';
import { silentLogger } from '@hermes/protocol';
import { beforeAll, describe, expect, it } from 'vitest';

const PLUGINS = fileURLToPath(new URL('../../plugins', import.meta.url));

/** What the tool reports for an irrational result: 12 significant digits. */
const twelveDigits = (x: number) => Number(x.toPrecision(12));

let calc: (expression: unknown) => Promise<{ expression?: string; result?: number; error?: string }>;

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
  const tool = tools.get('calculate');
  if (!tool) throw new Error('calculate was not registered');
  calc = async (expression) => {
    const out = await tool.handler({ expression }, {} as never);
    expect(typeof out).toBe('string');
    return JSON.parse(out as string);
  };
});

async function value(expression: string): Promise<number | undefined> {
  const out = await calc(expression);
  expect(out.error, expression).toBeUndefined();
  return out.result;
}

async function error(expression: unknown): Promise<string> {
  const out = await calc(expression);
  expect(out.result, String(expression)).toBeUndefined();
  expect(typeof out.error).toBe('string');
  return out.error ?? '';
}

describe('calculate', () => {
  it('returns {expression, result}', async () => {
    expect(await calc(' 2**16 ')).toEqual({ expression: '2**16', result: 65536 });
    expect(await calc(42)).toEqual({ expression: '42', result: 42 });
  });

  it.each([
    ['1 + 2 * 3', 7],
    ['(1 + 2) * 3', 9],
    ['10 - 4 - 3', 3],
    ['100 / 10 / 5', 2],
    ['2 * 3 % 4', 2],
    ['7 % 3', 1],
    ['-7 % 3', 2],
    ['7 % -3', -2],
    ['5.5 % 2', 1.5],
    ['2**16', 65536],
    ['2^16', 65536],
    ['2**3**2', 512],
    ['2^3^2', 512],
    ['(2**3)**2', 64],
    ['-2**2', -4],
    ['-2^2', -4],
    ['(-2)**2', 4],
    ['2**-1', 0.5],
    ['2**-2**2', 0.0625],
    ['-3 * -3', 9],
    ['2 - -2', 4],
    ['--2', 2],
    ['+5', 5],
    ['-(3 + 4) * 2', -14],
    ['1.5e3 + .5', 1500.5],
    ['2E-3 * 1000', 2],
    ['0.1 + 0.2', 0.3],
    ['0.1 + 0.2 - 0.3', 0],
    ['1e15 + 1 - 1e15', 1],
    ['10 / 3', 3.33333333333],
    ['2**60', 2 ** 60],
    ['2 × 3 ÷ 4 − 1', 0.5],
  ])('%s = %d', async (expression, expected) => {
    expect(await value(expression)).toBe(expected);
  });

  it.each([
    ['sqrt(144)', 12],
    ['sqrt(2) * sqrt(2)', 2],
    ['pi * 5**2', 78.5398163397],
    ['sqrt(2) * pi', 4.44288293816],
    ['tau / pi', 2],
    ['e', twelveDigits(Math.E)],
    ['π * 2', 6.28318530718],
    ['sin(pi / 6)', 0.5],
    ['sin(pi)', 0],
    ['cos(0)', 1],
    ['cos(pi / 2)', 0],
    ['tan(pi / 4)', 1],
    ['asin(1) * 2', twelveDigits(Math.PI)],
    ['acos(-1)', twelveDigits(Math.PI)],
    ['atan(1) * 4', twelveDigits(Math.PI)],
    ['log(e)', 1],
    ['log(8, 2)', 3],
    ['log(1000, 10)', 3],
    ['log10(1000)', 3],
    ['log2(1024)', 10],
    ['exp(0)', 1],
    ['exp(1)', twelveDigits(Math.E)],
    ['abs(-3.5)', 3.5],
    ['round(2.5)', 3],
    ['round(-2.5)', -3],
    ['round(3.14159, 2)', 3.14],
    ['round(1234.5, -2)', 1200],
    ['floor(-2.5)', -3],
    ['ceil(2.1)', 3],
    ['min(3, 1, 2)', 1],
    ['max(3, 1, 2)', 3],
    ['max(7)', 7],
    ['pow(2, 10)', 1024],
    ['hypot(3, 4)', 5],
    ['factorial(0)', 1],
    ['factorial(5)', 120],
    ['factorial(20)', 2432902008176640000],
    ['SQRT(16) + PI - pi', 4],
    ['sqrt(sqrt(16)) + max(1, min(5, 2**2))', 6],
  ])('%s = %d', async (expression, expected) => {
    expect(await value(expression)).toBe(expected);
  });

  it('factorial(170) is the largest supported', async () => {
    expect(await value('factorial(170)')).toBeCloseTo(7.257415615307994e306, -295);
    expect(await error('factorial(171)')).toMatch(/170/);
  });

  it.each([
    ['1 / 0', /Division by zero/],
    ['5 / (3 - 3)', /Division by zero/],
    ['1 % 0', /Modulo by zero/],
    ['0 ** -1', /Division by zero/],
    ['x + 1', /Unknown identifier "x" at position 1/],
    ['2 * foo', /Unknown identifier "foo" at position 5/],
    ['foo(1)', /Unknown function "foo"/],
    ['pi(2)', /constant, not a function/],
    ['sqrt + 1', /is a function: call it like sqrt\(x\)/],
    ['2 +', /Syntax error at position 4: .*end of expression/],
    ['(1 + 2', /Syntax error at position 7: expected "\)"/],
    ['1 + 2)', /Syntax error at position 6/],
    ['2 3', /Syntax error at position 3: .*use \* to multiply/],
    ['2pi', /Syntax error at position 2: .*use \* to multiply/],
    ['3 * * 4', /Syntax error at position 5/],
    ['1 $ 2', /Syntax error at position 3: unexpected character "\$"/],
    ['max(1,)', /Syntax error at position 7/],
    ['sqrt()', /sqrt\(\) takes 1 argument, got 0/],
    ['sqrt(1, 2)', /sqrt\(\) takes 1 argument, got 2/],
    ['log(1, 2, 3)', /log\(\) takes 1 or 2 arguments, got 3/],
    ['pow(2)', /pow\(\) takes 2 arguments, got 1/],
    ['min()', /min\(\) takes at least 1 argument/],
    ['sqrt(-1)', /domain error/],
    ['log(0)', /domain error/],
    ['log(8, 1)', /base/],
    ['asin(2)', /domain error/],
    ['tan(pi / 2)', /domain error/],
    ['factorial(-1)', /non-negative whole number/],
    ['factorial(2.5)', /non-negative whole number/],
    ['round(1.5, 0.5)', /digits/],
    ['10 ** 400', /not finite/],
    ['exp(1000)', /not finite/],
    ['(-8) ** (1/3)', /not a real number/],
    ['1e400', /not finite/],
  ])('%s is an error', async (expression, message) => {
    expect(await error(expression)).toMatch(message);
  });

  it('refuses empty, non-string, over-long and over-nested input without throwing', async () => {
    expect(await error('')).toMatch(/No expression/);
    expect(await error('   ')).toMatch(/No expression/);
    expect(await error(undefined)).toMatch(/No expression/);
    expect(await error({ a: 1 })).toMatch(/No expression/);
    expect(await error(`1${'+1'.repeat(500)}`)).toMatch(/too long.*1000/);
    expect(await value(`1${'+1'.repeat(499)}`)).toBe(500);
    expect(await error(`${'('.repeat(101)}1${')'.repeat(101)}`)).toMatch(/nested too deeply/);
    expect(await value(`${'('.repeat(99)}1${')'.repeat(99)}`)).toBe(1);
    expect(await error(`${'-'.repeat(150)}1`)).toMatch(/nested too deeply/);
    expect(await error('2**'.repeat(200).concat('1'))).toMatch(/nested too deeply/);
  });

  it('echoes the expression with errors', async () => {
    expect(await calc('1/0')).toEqual({ expression: '1/0', error: 'Division by zero' });
  });
});

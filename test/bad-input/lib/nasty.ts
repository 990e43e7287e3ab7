// Hand-written hostile values: strings that break parsers, formatters and databases, and values of
// every wrong JSON type. The mutators in mutate.ts draw from these.
import type { Rng } from './prng.js';

export const ONE_MB = 1024 * 1024;

/** A 1 MB text (ASCII words with newlines), different per `seed` so dedupe keys never collide. */
export function megabyteText(seed = 0): string {
  const line = `line ${seed} of a very long message, the quick brown fox jumps over the lazy dog\n`;
  return line.repeat(Math.ceil(ONE_MB / line.length)).slice(0, ONE_MB);
}

/** Every C0 control character, DEL and the C1 controls. */
export const CONTROL_CHARS = `${Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).join('')}\u007f\u0080\u0085\u009f`;

/** Strings that are valid JSON strings but hostile to what reads them next. */
export const NASTY_STRINGS: readonly string[] = [
  '',
  ' ',
  '\n\n\n',
  '\u0000',
  `text with NUL\u0000inside`,
  CONTROL_CHARS,
  `controls ${CONTROL_CHARS} around text`,
  '\u001b[31mred ANSI\u001b[0m \u001b]0;title\u0007',
  '\ud800', // a lone high surrogate (not encodable as UTF-8)
  'before \udfff after', // a lone low surrogate
  '\udbff\udfff\ud800', // a valid pair followed by a lone half
  '\ufeffBOM first',
  '\u202eRTL override txet',
  'zero\u200bwidth\u200djoiner\u2060',
  '👍🏽👨‍👩‍👧‍👦🏳️‍🌈',
  `Z${'\u0336\u0338\u0334'.repeat(300)}algo`,
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${...} is the point (format-string injection)
  '%s%s%s%n%d{0}${x}',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${...} is the point (log4shell-style text)
  '${jndi:ldap://127.0.0.1/a}',
  '<script>alert(1)</script>',
  '<b>unclosed <i>tags <a href="javascript:alert(1)">x',
  '&lt;&amp;&#0;&#x110000;&#99999999;',
  '*'.repeat(5_000),
  '_'.repeat(3_000),
  '`'.repeat(3_000),
  '[a](b)'.repeat(500),
  '```\n'.repeat(200),
  '> '.repeat(2_000),
  '# '.repeat(1_000),
  '\\'.repeat(1_000),
  '"\'`;--',
  "'; DROP TABLE inbox; --",
  '../../../../etc/passwd',
  'C:\\Windows\\System32',
  '/new',
  '/sethome',
  '/queue',
  '/steer ',
  '/status@hermes_test_bot extra',
  '@hermes_test_bot',
  '<@U0BOT> <!channel> <!here>',
  '__proto__',
  'constructor',
  'toString',
  'null',
  'undefined',
  'NaN',
  '-0',
  '1e309',
  '\r\n'.repeat(1_000),
  '\t'.repeat(1_000),
  'a'.repeat(4_097),
  'ß'.repeat(10_000),
  '😀'.repeat(5_000),
  '[SILENT]',
];

/** JSON values of every type (and edge numbers), for wrong-type substitutions. */
export const WRONG_VALUES: readonly unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  -2_147_483_649,
  Number.MAX_SAFE_INTEGER + 2,
  1e308,
  '',
  '0',
  'not a number',
  [],
  [null],
  [1, 'two', { three: 3 }],
  {},
  { id: 1 },
  JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}'),
];

/** A value nested `depth` levels deep (arrays or objects): JSON parsers cope, recursive code may not. */
export function deeplyNested(depth: number, kind: 'array' | 'object' = 'array'): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = kind === 'array' ? [value] : { n: value };
  return value;
}

/** JSON text nested `depth` levels deep, built as text (no recursion anywhere). */
export function deeplyNestedJson(depth: number): string {
  return `${'['.repeat(depth)}"bottom"${']'.repeat(depth)}`;
}

/** A nasty string, sometimes generated: random code points from hostile ranges. */
export function nastyString(rng: Rng): string {
  if (rng.chance(0.6)) return rng.pick(NASTY_STRINGS);
  const ranges: [number, number][] = [
    [0x0000, 0x001f],
    [0x007f, 0x009f],
    [0x0300, 0x036f],
    [0x200b, 0x206f],
    [0xd800, 0xdfff],
    [0xe000, 0xf8ff],
    [0xfff0, 0xffff],
    [0x1f300, 0x1faff],
    [0x0020, 0x007e],
  ];
  let out = '';
  const length = rng.int(1, 200);
  for (let i = 0; i < length; i++) {
    const [lo, hi] = rng.pick(ranges);
    out += String.fromCodePoint(rng.int(lo, hi));
  }
  return out;
}

/** Turns a string from the command line or the environment into the type a schema node expects. */
import * as z from 'zod';
import { describeKind, unwrapSchema } from './schema-walk.js';

export type Coerced = { ok: true; value: unknown } | { ok: false; expected: string };

const NUMBER_TEXT = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const TRUE_WORDS = new Set(['true', 'yes', 'on', '1']);
const FALSE_WORDS = new Set(['false', 'no', 'off', '0']);

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    // Not JSON: the caller reports the expected shape instead of the parser's message.
    return { ok: false };
  }
}

function coerceList(raw: string, expected: string): Coerced {
  const text = raw.trim();
  if (text.startsWith('[')) {
    const parsed = parseJson(text);
    return parsed.ok && Array.isArray(parsed.value) ? parsed : { ok: false, expected: `${expected} (JSON list)` };
  }
  return {
    ok: true,
    value: text
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== ''),
  };
}

/**
 * Coerces `raw` by the node's type: numbers, booleans (true/false, yes/no, on/off, 1/0), lists as a
 * comma-separated string or JSON, mappings as JSON. Strings, enums and untyped keys stay strings.
 * Range and enum checks are left to the schema.
 */
export function coerceString(schema: z.ZodType, raw: string): Coerced {
  const node = unwrapSchema(schema);
  const expected = describeKind(node);
  if (node instanceof z.ZodNumber) {
    const text = raw.trim();
    return NUMBER_TEXT.test(text) ? { ok: true, value: Number(text) } : { ok: false, expected };
  }
  if (node instanceof z.ZodBoolean) {
    const word = raw.trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return { ok: true, value: true };
    if (FALSE_WORDS.has(word)) return { ok: true, value: false };
    return { ok: false, expected };
  }
  if (node instanceof z.ZodUnion) {
    // a string or a list (model.fallback): a JSON list is the list, anything else the string
    const list = (node.options as readonly z.ZodType[]).find((o) => unwrapSchema(o) instanceof z.ZodArray);
    if (list && raw.trim().startsWith('[')) return coerceString(list, raw);
  }
  if (node instanceof z.ZodArray) {
    const element = unwrapSchema(node.element as z.ZodType);
    if (element instanceof z.ZodObject || element instanceof z.ZodRecord || element instanceof z.ZodArray) {
      const parsed = parseJson(raw.trim());
      return parsed.ok && Array.isArray(parsed.value) ? parsed : { ok: false, expected: `${expected} (JSON list)` };
    }
    return coerceList(raw, expected);
  }
  if (node instanceof z.ZodObject || node instanceof z.ZodRecord) {
    const parsed = parseJson(raw.trim());
    const isMapping =
      parsed.ok && parsed.value !== null && typeof parsed.value === 'object' && !Array.isArray(parsed.value);
    return isMapping ? parsed : { ok: false, expected: `${expected} (JSON object)` };
  }
  return { ok: true, value: raw };
}

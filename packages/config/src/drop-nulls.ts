/** `key:` with no value means "not set": removes null entries of known mappings before validation. */
import * as z from 'zod';
import { unwrapSchema } from './schema-walk.js';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Deletes null-valued keys of objects and records the schema describes, in place; returns `data`. */
export function dropNullEntries(data: unknown, schema: z.ZodType): unknown {
  const type = unwrapSchema(schema);
  if (type instanceof z.ZodObject && isPlainObject(data)) {
    const shape: Record<string, z.ZodType> = type.shape;
    for (const [key, value] of Object.entries(data)) {
      const child = Object.hasOwn(shape, key) ? shape[key] : undefined;
      if (child === undefined) continue;
      if (value === null) delete data[key];
      else dropNullEntries(value, child);
    }
  } else if (type instanceof z.ZodRecord && isPlainObject(data)) {
    for (const [key, value] of Object.entries(data)) {
      if (value === null) delete data[key];
      else dropNullEntries(value, type.valueType as z.ZodType);
    }
  } else if (type instanceof z.ZodArray && Array.isArray(data)) {
    for (const item of data) dropNullEntries(item, type.element as z.ZodType);
  }
  return data;
}

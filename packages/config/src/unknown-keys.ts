/** Finds keys of config.yaml that the schema does not know: warnings naming the valid keys. */
import { type Document, isMap, isSeq, type LineCounter } from 'yaml';
import * as z from 'zod';
import type { ConfigWarning } from './config-warning.js';
import { closestMatch, didYouMean } from './edit-distance.js';
import { formatKeyPath } from './key-path.js';
import { QUIET_OBJECTS } from './schema.js';
import { isLooseObject, type KeyPath, shapeKeys, unwrapSchema } from './schema-walk.js';
import { keyText, nodeLine } from './yaml-location.js';

interface WalkContext {
  file: string;
  lineCounter: LineCounter;
  warnings: ConfigWarning[];
}

function walk(node: unknown, schema: z.ZodType, path: KeyPath, ctx: WalkContext): void {
  const type = unwrapSchema(schema);
  if (type instanceof z.ZodObject && isMap(node)) {
    const shape: Record<string, z.ZodType> = type.shape;
    const strict = !isLooseObject(type) && !QUIET_OBJECTS.has(type);
    for (const pair of node.items) {
      const key = keyText(pair.key);
      const child = Object.hasOwn(shape, key) ? shape[key] : undefined;
      if (child !== undefined) walk(pair.value, child, [...path, key], ctx);
      else if (strict)
        ctx.warnings.push(unknownKeyWarning(key, path, shapeKeys(type), nodeLine(pair.key, ctx.lineCounter), ctx));
    }
  } else if (type instanceof z.ZodRecord && isMap(node)) {
    for (const pair of node.items) walk(pair.value, type.valueType as z.ZodType, [...path, keyText(pair.key)], ctx);
  } else if (type instanceof z.ZodArray && isSeq(node)) {
    node.items.forEach((item, index) => {
      walk(item, type.element as z.ZodType, [...path, index], ctx);
    });
  }
}

function unknownKeyWarning(
  key: string,
  parent: KeyPath,
  validKeys: string[],
  line: number | null,
  ctx: WalkContext,
): ConfigWarning {
  const where = parent.length === 0 ? 'at top level' : `in ${formatKeyPath(parent)}`;
  const location = line === null ? `${ctx.file}: ` : `${ctx.file}:${line}: `;
  const suggestion = closestMatch(key, validKeys);
  return {
    kind: 'unknown_key',
    file: ctx.file,
    line,
    key: formatKeyPath([...parent, key]),
    ...(suggestion === undefined ? {} : { suggestion }),
    message: `${location}unknown key "${key}" ${where} (valid keys: ${validKeys.join(', ')})${didYouMean(key, validKeys)}`,
  };
}

/** Warnings for every key of `doc` outside the schema (records and loose objects accept any key). */
export function findUnknownKeys(
  doc: Document,
  schema: z.ZodType,
  file: string,
  lineCounter: LineCounter,
): ConfigWarning[] {
  const ctx: WalkContext = { file, lineCounter, warnings: [] };
  walk(doc.contents, schema, [], ctx);
  return ctx.warnings;
}

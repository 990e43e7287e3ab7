/** Introspection of the zod schema: find the node at a key path and describe what it expects. */
import * as z from 'zod';

export type KeyPath = readonly (string | number)[];

/** Strips optional/default/prefault/nullable wrappers. */
export function unwrapSchema(schema: z.ZodType): z.ZodType {
  let node = schema;
  while (
    node instanceof z.ZodOptional ||
    node instanceof z.ZodDefault ||
    node instanceof z.ZodPrefault ||
    node instanceof z.ZodNullable
  ) {
    node = node.unwrap() as z.ZodType;
  }
  return node;
}

/** True for objects that accept keys outside their shape (`z.looseObject`). */
export function isLooseObject(schema: z.ZodObject): boolean {
  return schema.def.catchall !== undefined;
}

/** The schema node at `path`, or undefined when the path leaves the schema. Unknown keys of loose objects are `z.unknown()`. */
export function schemaAt(root: z.ZodType, path: KeyPath): z.ZodType | undefined {
  let node: z.ZodType = unwrapSchema(root);
  for (const segment of path) {
    if (node instanceof z.ZodObject && typeof segment === 'string') {
      const shape: Record<string, z.ZodType> = node.shape;
      const child = Object.hasOwn(shape, segment) ? shape[segment] : undefined;
      if (child === undefined) return isLooseObject(node) ? z.unknown() : undefined;
      node = unwrapSchema(child);
    } else if (node instanceof z.ZodRecord && typeof segment === 'string') {
      node = unwrapSchema(node.valueType as z.ZodType);
    } else if (node instanceof z.ZodArray && typeof segment === 'number') {
      node = unwrapSchema(node.element as z.ZodType);
    } else {
      return undefined;
    }
  }
  return node;
}

function describeNumber(schema: z.ZodNumber): string {
  const kind = schema.isInt ? 'integer' : 'number';
  const safe = Number.MAX_SAFE_INTEGER;
  const min = schema.minValue !== null && Math.abs(schema.minValue) < safe ? schema.minValue : null;
  const max = schema.maxValue !== null && Math.abs(schema.maxValue) < safe ? schema.maxValue : null;
  if (min !== null && max !== null) return `${kind} ${min}-${max}`;
  if (min !== null) return schema.safeParse(min).success ? `${kind} >= ${min}` : `${kind} > ${min}`;
  if (max !== null) return `${kind} <= ${max}`;
  return kind;
}

function plural(description: string): string {
  if (description === 'mapping') return 'mappings';
  if (description === 'string' || description === 'number' || description === 'integer') return `${description}s`;
  return `(${description})`;
}

/** The node's type in words, without ranges: "integer", "string", "list of strings", "mapping". */
export function describeKind(schema: z.ZodType): string {
  const node = unwrapSchema(schema);
  if (node instanceof z.ZodString) return 'string';
  if (node instanceof z.ZodNumber) return node.isInt ? 'integer' : 'number';
  if (node instanceof z.ZodBoolean) return 'boolean';
  if (node instanceof z.ZodEnum) return `one of ${node.options.join(', ')}`;
  if (node instanceof z.ZodArray) return `list of ${plural(describeKind(node.element as z.ZodType))}`;
  if (node instanceof z.ZodObject || node instanceof z.ZodRecord) return 'mapping';
  return 'any value';
}

/** What a value at this node must be, ranges included: "integer 0-23", "number > 0", "non-empty string". */
export function describeExpected(schema: z.ZodType): string {
  const node = unwrapSchema(schema);
  if (node instanceof z.ZodString) return (node.minLength ?? 0) > 0 ? 'non-empty string' : 'string';
  if (node instanceof z.ZodNumber) return describeNumber(node);
  if (node instanceof z.ZodArray) return `list of ${plural(describeKind(node.element as z.ZodType))}`;
  return describeKind(node);
}

/** The declared keys of an object node, in schema order. */
export function shapeKeys(schema: z.ZodObject): string[] {
  return Object.keys(schema.shape);
}

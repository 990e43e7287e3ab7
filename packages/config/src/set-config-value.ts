/** `hermes config set KEY VALUE`: one key edited in place, comments kept, validated, written atomically. */
import { ERROR_CODES } from '@hermes/protocol';
import { type Document, isCollection, isMap, isNode, isScalar } from 'yaml';
import * as z from 'zod';
import { writeFileAtomic } from './atomic-write.js';
import { coerceString } from './coerce-value.js';
import { ConfigError, type ConfigIssue, configError } from './config-error.js';
import { configPaths } from './config-paths.js';
import type { ConfigWarning } from './config-warning.js';
import { describeValue } from './describe-value.js';
import { didYouMean } from './edit-distance.js';
import { readTextIfExists } from './fs-helpers.js';
import { formatKeyPath } from './key-path.js';
import { documentRoot, parseConfigText, parseYaml } from './parse-config-text.js';
import { configSchema } from './schema.js';
import { describeExpected, isLooseObject, shapeKeys, unwrapSchema } from './schema-walk.js';

export interface SetConfigValueResult {
  path: string;
  key: string;
  /** the value as written, after coercion */
  value: unknown;
  /** true when config.yaml did not exist before */
  created: boolean;
  /** warnings of the resulting file (unknown keys elsewhere, unknown hook events) */
  warnings: readonly ConfigWarning[];
  /** problems left in other keys of a file that was already invalid (the value was still set) */
  remaining: readonly ConfigIssue[];
}

/** The issues of `text`, or [] when it is valid. */
function issuesOf(text: string, path: string): readonly ConfigIssue[] {
  try {
    parseConfigText(text, path);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.issues;
    throw err;
  }
}

function keyIssue(key: string, message: string, expected: string, file: string): ConfigIssue {
  return { file, line: null, key, expected, actual: 'an unknown key', message };
}

/** The schema node a dotted key addresses; throws CONFIG_KEY naming the valid keys where it goes wrong. */
function resolveKey(segments: readonly string[], key: string, file: string): z.ZodType {
  let node: z.ZodType = unwrapSchema(configSchema);
  for (const [index, segment] of segments.entries()) {
    const parent = segments.slice(0, index);
    if (node instanceof z.ZodObject) {
      const shape: Record<string, z.ZodType> = node.shape;
      const child = Object.hasOwn(shape, segment) ? shape[segment] : undefined;
      if (child === undefined && isLooseObject(node)) {
        node = z.unknown();
      } else if (child === undefined) {
        const valid = shapeKeys(node);
        const where = parent.length === 0 ? 'at top level' : `in ${formatKeyPath(parent)}`;
        const message = `unknown key "${segment}" ${where} (valid keys: ${valid.join(', ')})${didYouMean(segment, valid)}`;
        throw configError(ERROR_CODES.CONFIG_KEY, keyIssue(key, message, `one of ${valid.join(', ')}`, file));
      } else {
        node = unwrapSchema(child);
      }
    } else if (node instanceof z.ZodRecord) {
      node = unwrapSchema(node.valueType as z.ZodType);
    } else {
      const at = formatKeyPath(parent);
      const hint = node instanceof z.ZodArray ? '; set the whole list (comma-separated or JSON)' : '';
      const message = `${at} is a ${describeExpected(node)} and has no key "${segment}"${hint}`;
      throw configError(ERROR_CODES.CONFIG_KEY, keyIssue(key, message, describeExpected(node), file));
    }
  }
  return node;
}

/** Makes every parent of `segments` a mapping (an empty `section:` becomes `section: {}`-to-be). */
function ensureParents(doc: Document, segments: readonly string[]): void {
  for (let depth = 1; depth < segments.length; depth++) {
    const prefix = segments.slice(0, depth);
    const node = doc.getIn(prefix, true);
    if (node !== undefined && !isMap(node)) doc.setIn(prefix, doc.createNode({}));
  }
}

function setValue(doc: Document, segments: readonly string[], value: unknown): void {
  if (doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null)) {
    doc.contents = doc.createNode({});
  }
  ensureParents(doc, segments);
  const existing = doc.getIn(segments, true);
  const isPlainValue = value === null || typeof value !== 'object';
  // Updating the scalar in place keeps its comment and quoting.
  if (isScalar(existing) && isPlainValue) {
    existing.value = value;
    return;
  }
  const node = doc.createNode(value);
  // A list or mapping written inline ([a, b]) stays inline.
  if (isCollection(existing) && isCollection(node)) node.flow = existing.flow ?? false;
  // the value's own comment stays with it: `key: a # why` becomes a list headed by `# why`, and back
  if (isNode(existing)) {
    const said = existing.commentBefore ?? existing.comment;
    if (said && isScalar(node)) node.comment = said;
    else if (said) node.commentBefore = said;
  }
  doc.setIn(segments, node);
}

/**
 * Sets `key` (dotted, e.g. "model.default") in `<home>/config.yaml` to `value` coerced by the
 * schema (numbers, booleans, lists as "a,b" or JSON, mappings as JSON). The whole resulting file is
 * validated first: on any error a ConfigError is thrown and the file is left untouched.
 */
export function setConfigValue(options: { home: string; key: string; value: string }): SetConfigValueResult {
  const { key } = options;
  const { config: path } = configPaths(options.home);
  const segments = key.split('.');
  if (segments.some((segment) => segment === '')) {
    const message = `invalid key "${key}": use dotted names like model.default`;
    throw configError(ERROR_CODES.CONFIG_KEY, keyIssue(key, message, 'a dotted key', path));
  }
  const node = resolveKey(segments, key, path);
  const coerced = coerceString(node, options.value);
  if (!coerced.ok) {
    const actual = describeValue(options.value);
    throw configError(ERROR_CODES.CONFIG_TYPE, {
      file: null,
      line: null,
      key,
      expected: coerced.expected,
      actual,
      message: `${key}: expected ${coerced.expected}, got ${actual}`,
    });
  }
  const before = readTextIfExists(path);
  const { doc, lineCounter } = parseYaml(before ?? '', path);
  documentRoot(doc, path, lineCounter);
  setValue(doc, segments, coerced.value);
  const text = doc.toString({ lineWidth: 0 });
  const remaining = issuesOf(text, path);
  const touches = (issue: ConfigIssue) => issue.key === key || issue.key.startsWith(`${key}.`) || issue.key === '';
  // a file that was already invalid elsewhere may still be fixed one value at a time
  if (remaining.length > 0 && (remaining.some(touches) || issuesOf(before ?? '', path).length === 0)) {
    parseConfigText(text, path); // throws the issue this value causes
  }
  const warnings = remaining.length === 0 ? parseConfigText(text, path).warnings : [];
  writeFileAtomic(path, text);
  return {
    path,
    key,
    value: coerced.value,
    created: before === null,
    warnings: Object.freeze(warnings),
    remaining: Object.freeze([...remaining]),
  };
}

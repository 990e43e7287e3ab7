/** The core of loading: YAML text -> validated (still mutable) config plus warnings, or a ConfigError. */
import { ERROR_CODES, MAX_YAML_NESTING, yamlNestingTooDeep } from '@hermes/protocol';
import { type Document, LineCounter, parseDocument } from 'yaml';
import * as z from 'zod';
import { type ConfigIssue, configError, configErrorFromIssues, locationPrefix } from './config-error.js';
import type { ConfigWarning } from './config-warning.js';
import { describeValue } from './describe-value.js';
import { dropNullEntries } from './drop-nulls.js';
import { didYouMean } from './edit-distance.js';
import { checkHookEvents } from './hook-events.js';
import { formatKeyPath } from './key-path.js';
import { configSchema, type MutableConfig } from './schema.js';
import { describeExpected, describeKind, type KeyPath, schemaAt } from './schema-walk.js';
import { findUnknownKeys } from './unknown-keys.js';
import { lineOfPath } from './yaml-location.js';

/** Limit on alias expansion while converting the document (yaml's protection against alias bombs). */
const MAX_ALIAS_COUNT = 100;

export interface ParsedConfigText {
  config: MutableConfig;
  warnings: ConfigWarning[];
}

/** Parses YAML with line tracking; throws CONFIG_SYNTAX listing every syntax error. */
export function parseYaml(text: string, file: string): { doc: Document; lineCounter: LineCounter } {
  const deepAt = yamlNestingTooDeep(text);
  if (deepAt !== null) {
    const reason = `collections nested more than ${MAX_YAML_NESTING} deep`;
    throw configErrorFromIssues(
      ERROR_CODES.CONFIG_SYNTAX,
      [
        {
          file,
          line: deepAt,
          key: '',
          expected: 'valid YAML',
          actual: reason,
          message: `${locationPrefix(file, deepAt)}YAML syntax error: ${reason}`,
        },
      ],
      file,
    );
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const issues: ConfigIssue[] = doc.errors.map((error) => {
    // An error at end of input (an unclosed bracket) is reported on the last line with content.
    const offset = Math.min(error.pos[0], Math.max(0, text.trimEnd().length - 1));
    const line = lineCounter.linePos(offset).line;
    const reason = error.message.split('\n')[0] ?? error.code;
    return {
      file,
      line,
      key: '',
      expected: 'valid YAML',
      actual: reason,
      message: `${locationPrefix(file, line)}YAML syntax error: ${reason}`,
    };
  });
  if (issues.length > 0) throw configErrorFromIssues(ERROR_CODES.CONFIG_SYNTAX, issues, file);
  return { doc, lineCounter };
}

function valueAt(data: unknown, path: KeyPath): unknown {
  let value = data;
  for (const segment of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = Reflect.get(value, segment);
  }
  return value;
}

/** A wrong type names the type ("number"); a value out of range names the range ("integer 0-23"). */
function expectedFor(issue: z.core.$ZodIssue, node: z.ZodType | undefined, value: unknown): string {
  if (issue.code === 'custom' || node === undefined) return issue.message;
  if (issue.code === 'invalid_type' && value !== undefined) return describeKind(node);
  return describeExpected(node);
}

function toIssue(
  issue: z.core.$ZodIssue,
  data: unknown,
  doc: Document,
  file: string,
  lineCounter: LineCounter,
): ConfigIssue {
  const path = issue.path.filter((segment): segment is string | number => typeof segment !== 'symbol');
  const node = schemaAt(configSchema, path);
  const value = valueAt(data, path);
  const expected = expectedFor(issue, node, value);
  const actual = describeValue(value);
  const line = lineOfPath(doc, path, lineCounter);
  const key = formatKeyPath(path);
  const hint =
    node instanceof z.ZodEnum && typeof value === 'string' ? didYouMean(value, node.options.map(String)) : '';
  return {
    file,
    line,
    key: path.length === 0 ? '' : key,
    expected,
    actual,
    message: `${locationPrefix(file, line)}${key}: expected ${expected}, got ${actual}${hint}`,
  };
}

/** doc.toJS(), with its failures (e.g. an alias bomb over the alias limit) as CONFIG_SYNTAX. */
function toPlainData(doc: Document, file: string): unknown {
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) ?? {};
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw configError(ERROR_CODES.CONFIG_SYNTAX, {
      file,
      line: null,
      key: '',
      expected: 'valid YAML',
      actual: reason,
      message: `${file}: YAML error: ${reason}`,
    });
  }
}

/** The document's data as a plain object (empty document = {}); throws CONFIG_TYPE for a non-mapping root. */
export function documentRoot(doc: Document, file: string, lineCounter: LineCounter): Record<string, unknown> {
  const raw = toPlainData(doc, file);
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) return { ...raw };
  const line = lineOfPath(doc, [], lineCounter);
  throw configError(ERROR_CODES.CONFIG_TYPE, {
    file,
    line,
    key: '',
    expected: 'mapping',
    actual: describeValue(raw),
    message: `${locationPrefix(file, line)}top level: expected mapping, got ${describeValue(raw)}`,
  });
}

/** Validates a parsed document against the schema; throws CONFIG_TYPE listing every issue. */
export function validateDocument(doc: Document, file: string, lineCounter: LineCounter): ParsedConfigText {
  const raw = documentRoot(doc, file, lineCounter);
  const data = dropNullEntries(raw, configSchema);
  const result = configSchema.safeParse(data);
  if (!result.success) {
    const issues = result.error.issues.map((issue) => toIssue(issue, data, doc, file, lineCounter));
    issues.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
    throw configErrorFromIssues(ERROR_CODES.CONFIG_TYPE, issues, file);
  }
  const warnings = [
    ...findUnknownKeys(doc, configSchema, file, lineCounter),
    ...checkHookEvents(doc, file, lineCounter),
  ];
  warnings.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return { config: result.data, warnings };
}

/** Parses and validates config.yaml text. `file` is used in every message. */
export function parseConfigText(text: string, file: string): ParsedConfigText {
  const { doc, lineCounter } = parseYaml(text, file);
  return validateDocument(doc, file, lineCounter);
}

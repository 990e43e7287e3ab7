/** ConfigError: a one-line, file:line-located configuration problem with a stable code. */
import { type ERROR_CODES, HermesError } from '@hermes/protocol';

export type ConfigErrorCode =
  | typeof ERROR_CODES.CONFIG_SYNTAX
  | typeof ERROR_CODES.CONFIG_TYPE
  | typeof ERROR_CODES.CONFIG_KEY;

/** One problem. `message` is the complete one-line text, location included. */
export interface ConfigIssue {
  /** absolute path of the file, or null when the value came from elsewhere (env, command line) */
  file: string | null;
  /** 1-based line, or null when unknown */
  line: number | null;
  /** dotted key path (`model.timeout_s`), or "" for the whole document */
  key: string;
  /** what the value must be, in words: `number`, `integer 0-23`, `valid YAML`, ... */
  expected: string;
  /** what was found: `string "fast"`, or the parser's message for syntax errors */
  actual: string;
  /** the environment variable the value came from, for env overrides */
  envVar?: string;
  message: string;
}

/** Builds the `file:line: ` prefix of a message (empty when there is no file). */
export function locationPrefix(file: string | null, line: number | null): string {
  if (file === null) return '';
  return line === null ? `${file}: ` : `${file}:${line}: `;
}

/** Thrown for invalid configuration. `message` is one line: the first issue, plus a count of the others. */
export class ConfigError extends HermesError {
  readonly file: string | null;
  readonly line: number | null;
  readonly key: string;
  readonly expected: string;
  readonly issues: readonly ConfigIssue[];

  constructor(code: ConfigErrorCode, issues: readonly [ConfigIssue, ...ConfigIssue[]]) {
    const [first] = issues;
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
    super(code, `${first.message}${more}`);
    this.name = 'ConfigError';
    this.file = first.file;
    this.line = first.line;
    this.key = first.key;
    this.expected = first.expected;
    this.issues = Object.freeze([...issues]);
  }
}

/** Shorthand for a ConfigError with a single issue. */
export function configError(code: ConfigErrorCode, issue: ConfigIssue): ConfigError {
  return new ConfigError(code, [issue]);
}

/** A ConfigError from a list that should not be empty (an empty list still yields a sensible error). */
export function configErrorFromIssues(
  code: ConfigErrorCode,
  issues: readonly ConfigIssue[],
  file: string,
): ConfigError {
  const [first, ...rest] = issues;
  if (first !== undefined) return new ConfigError(code, [first, ...rest]);
  return configError(code, {
    file,
    line: null,
    key: '',
    expected: 'valid config',
    actual: 'an invalid document',
    message: `${file}: invalid configuration`,
  });
}

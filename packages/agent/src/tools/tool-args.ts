/**
 * Argument readers for tool handlers. A missing or mistyped argument becomes an error naming
 * the argument and the expected type (`HERMES_TOOL_ARGS`); handlers return it as a result
 * instead of throwing.
 */
import { ERROR_CODES, HermesError } from '@hermes/protocol';

/** Thrown by the readers below (code `HERMES_TOOL_ARGS`); `parseArgs` turns it into `{ ok: false, error, code }`. */
export class ToolArgumentError extends HermesError {
  constructor(message: string) {
    super(ERROR_CODES.TOOL_ARGS, message);
    this.name = 'ToolArgumentError';
  }
}

export type ParsedArgs<T> = { ok: true; value: T } | { ok: false; error: string; code: typeof ERROR_CODES.TOOL_ARGS };

/** Runs `read`; a ToolArgumentError becomes `{ ok: false, error, code }`, any other error propagates. */
export function parseArgs<T>(read: () => T): ParsedArgs<T> {
  try {
    return { ok: true, value: read() };
  } catch (error) {
    if (error instanceof ToolArgumentError) return { ok: false, error: error.message, code: ERROR_CODES.TOOL_ARGS };
    throw error;
  }
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** A required string argument; empty or blank strings are rejected unless `allowEmpty`. */
export function requiredString(
  args: Record<string, unknown>,
  name: string,
  options: { allowEmpty?: boolean } = {},
): string {
  const value = args[name];
  if (value === undefined || value === null) {
    throw new ToolArgumentError(`Missing required argument "${name}": expected a string`);
  }
  if (typeof value !== 'string') {
    throw new ToolArgumentError(`Invalid argument "${name}": expected a string, got ${typeName(value)}`);
  }
  if (!options.allowEmpty && value.trim() === '') {
    throw new ToolArgumentError(`Invalid argument "${name}": expected a non-empty string`);
  }
  return value;
}

/** An optional string argument; absent, null and '' read as undefined. */
export function optionalString(args: Record<string, unknown>, name: string): string | undefined {
  const value = args[name];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') {
    throw new ToolArgumentError(`Invalid argument "${name}": expected a string, got ${typeName(value)}`);
  }
  return value;
}

/** An optional number argument (absent or null read as undefined), optionally an integer >= `min`. */
export function optionalNumber(
  args: Record<string, unknown>,
  name: string,
  options: { integer?: boolean; min?: number } = {},
): number | undefined {
  const value = args[name];
  if (value === undefined || value === null) return undefined;
  const expected = `${options.integer ? 'an integer' : 'a number'}${options.min === undefined ? '' : ` >= ${options.min}`}`;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new ToolArgumentError(`Invalid argument "${name}": expected ${expected}, got ${typeName(value)}`);
  }
  if ((options.integer && !Number.isInteger(value)) || (options.min !== undefined && value < options.min)) {
    throw new ToolArgumentError(`Invalid argument "${name}": expected ${expected}, got ${value}`);
  }
  return value;
}

/** An optional boolean argument (absent or null read as undefined). */
export function optionalBoolean(args: Record<string, unknown>, name: string): boolean | undefined {
  const value = args[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') {
    throw new ToolArgumentError(`Invalid argument "${name}": expected true or false, got ${typeName(value)}`);
  }
  return value;
}

/**
 * What a shell hook printed on stdout, parsed into the bus's typed result for the hook's kind.
 * Empty output is a no-op; output that is not JSON is a problem (logged, then ignored).
 */
import type { HookKind } from '@hermes/protocol';
import { type HookResultByKind, parseHookResult } from '../combine.js';

/** The typed result a shell hook gives the bus, by kind (null: nothing to say): the plugins' own. */
export type ShellResultByKind = HookResultByKind;

export interface ParsedShellResponse<T> {
  result: T;
  /** the parsed JSON (undefined for empty or invalid output) */
  json: unknown;
  /** why the output was not usable, or null */
  problem: string | null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The wire shapes, mapped to what a plugin callback would return; the shared parser of the kind
 * (combine.ts) does the rest. gate: `{"decision":"block","reason"}` or `{"action":"block","message"}`
 * as is; transform: `{"replace": "<new text>"}`; inject: `{"context": "<text>"}` (an object only);
 * dispatch: `{"action":"skip","reason"}`, `{"action":"rewrite","text"}`, `{"action":"allow"}` as is.
 */
const FROM_WIRE: { [K in HookKind]: (json: unknown) => unknown } = {
  observe: () => undefined,
  gate: (json) => json,
  transform: (json) => (isRecord(json) ? json.replace : undefined),
  inject: (json) => (isRecord(json) ? json : undefined),
  dispatch: (json) => json,
};

const EXCERPT_CHARS = 200;

/** A short, one-line excerpt of hook output for messages. */
export function excerpt(text: string): string {
  const line = text.trim().replace(/\s+/g, ' ');
  return line.length > EXCERPT_CHARS ? `${line.slice(0, EXCERPT_CHARS)}…` : line;
}

const EMPTY: { [K in HookKind]: ShellResultByKind[K] } = {
  observe: undefined,
  gate: null,
  transform: null,
  inject: null,
  dispatch: null,
};

/** No result: what a hook that printed nothing (or failed) gives the bus. */
export function emptyShellResult<K extends HookKind>(kind: K): ShellResultByKind[K] {
  return EMPTY[kind];
}

/**
 * Parses `stdout` for a hook of `kind`. `blockedBy` names the hook in the message of a block that
 * gave none (`shell hook <command>`).
 */
export function parseShellResponse<K extends HookKind>(
  kind: K,
  stdout: string,
  blockedBy: string,
): ParsedShellResponse<ShellResultByKind[K]> {
  if (stdout.trim() === '') return { result: emptyShellResult(kind), json: undefined, problem: null };
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch {
    // not JSON: reported to the caller as a problem, never thrown
    return { result: emptyShellResult(kind), json: undefined, problem: `printed invalid JSON: ${excerpt(stdout)}` };
  }
  return { result: parseHookResult(kind, FROM_WIRE[kind](json), blockedBy), json, problem: null };
}

/**
 * THE result parsers, one per hook kind, shared by JS plugin callbacks and shell hooks (whose
 * JSON is first mapped from its wire shape, see shell-hooks/parse-response.ts). Loose values are
 * normalised here, at the edge; the bus then combines the parsed results per kind.
 */
import type { BlockDecision, DispatchDecision, HookKind } from '@hermes/protocol';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.trim().length > 0;
}

/** What one callback's return value means, by kind (null: nothing to say). */
export interface HookResultByKind {
  observe: undefined;
  gate: BlockDecision | null;
  transform: string | null;
  inject: string | null;
  dispatch: DispatchDecision | null;
}

/** The message of a block that gave none: names who blocked. */
export function defaultBlockMessage(blockedBy: string): string {
  return `blocked by ${blockedBy}`;
}

/**
 * A block from either documented shape (`{action: "block", message}`, `{decision: "block",
 * reason}`), else null. A block without its text still blocks, with a message naming `blockedBy`:
 * failing closed is the safer reading of an explicit veto.
 */
export function parseBlock(value: unknown, blockedBy: string): BlockDecision | null {
  if (!isRecord(value)) return null;
  if (value.action === 'block') {
    return { action: 'block', message: nonEmptyString(value.message) ? value.message : defaultBlockMessage(blockedBy) };
  }
  if (value.decision === 'block') {
    return { action: 'block', message: nonEmptyString(value.reason) ? value.reason : defaultBlockMessage(blockedBy) };
  }
  return null;
}

/** Context text from `{context}` or a plain non-empty string, else null. */
export function parseContext(value: unknown): string | null {
  if (nonEmptyString(value)) return value;
  if (isRecord(value) && nonEmptyString(value.context)) return value.context;
  return null;
}

/** A replacement string, else null (the empty string is a valid replacement). */
export function parseTransform(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** A recognised skip / rewrite / allow, else null. */
export function parseDispatch(value: unknown): DispatchDecision | null {
  if (!isRecord(value)) return null;
  switch (value.action) {
    case 'skip':
      return { action: 'skip', reason: typeof value.reason === 'string' ? value.reason : '' };
    case 'rewrite':
      return typeof value.text === 'string' ? { action: 'rewrite', text: value.text } : null;
    case 'allow':
      return { action: 'allow' };
    default:
      return null;
  }
}

const PARSERS: { [K in HookKind]: (value: unknown, source: string) => HookResultByKind[K] } = {
  observe: () => undefined,
  gate: parseBlock,
  transform: parseTransform,
  inject: parseContext,
  dispatch: parseDispatch,
};

/**
 * What `value`, returned by a callback of a hook of `kind`, means. `source` names the callback
 * (`plugin:guard`, `shell hook ~/hooks/x.sh`) in the message of a block that gave none.
 */
export function parseHookResult<K extends HookKind>(kind: K, value: unknown, source: string): HookResultByKind[K] {
  return PARSERS[kind](value, source);
}

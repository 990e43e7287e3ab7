/**
 * Parsing of untyped callback returns into the table's outcome unions, one function per kind.
 * Shell hooks and JS plugins return loose values; they are normalised here, at the edge.
 */
import type { BlockDecision, DispatchDecision } from '@hermes/protocol';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.trim().length > 0;
}

/** A block from either documented shape, or null when the value is not a valid block. */
export function parseBlock(value: unknown): BlockDecision | null {
  if (!isRecord(value)) return null;
  if (value.action === 'block' && nonEmptyString(value.message)) return { action: 'block', message: value.message };
  if (value.decision === 'block' && nonEmptyString(value.reason)) return { action: 'block', message: value.reason };
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

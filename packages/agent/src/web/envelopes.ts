/**
 * The seed's fixed response envelopes as zod schemas, checked at the boundary between a provider
 * and the tools: whatever a provider returns (it may be plain JavaScript) becomes either a typed
 * envelope or one clear error naming the provider, the path and what was expected.
 */
import type { WebExtractResponse, WebSearchResponse } from '@hermes/protocol';
import * as z from 'zod';

const failure = z.object({ success: z.literal(false), error: z.string() });

const hit = z.object({
  title: z.string(),
  url: z.string(),
  description: z.string(),
  position: z.int().min(1),
});

const searchSuccess = z.object({ success: z.literal(true), data: z.object({ web: z.array(hit) }) });

const page = z.object({
  url: z.string(),
  title: z.string(),
  content: z.string(),
  raw_content: z.string(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  error: z.string().optional(),
});

const extractSuccess = z.object({ success: z.literal(true), data: z.array(page) });

const searchEnvelope = z.discriminatedUnion('success', [searchSuccess, failure]);
const extractEnvelope = z.discriminatedUnion('success', [extractSuccess, failure]);

export type EnvelopeCheck<T> = { ok: true; value: T } | { ok: false; error: string };

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value).slice(0, 40)}`;
}

function at(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root;
  for (const key of path)
    v = typeof v === 'object' && v !== null ? (v as Record<PropertyKey, unknown>)[key] : undefined;
  return v;
}

function explain(error: z.ZodError, value: unknown): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid value';
  const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('') || '(root)';
  const got = describe(at(value, issue.path));
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more problems)` : '';
  const expected = issue.code === 'invalid_type' ? `expected ${issue.expected}` : issue.message;
  return `${path.replace(/^\./, '')}: ${expected}, got ${got}${more}`;
}

function check<T>(schema: z.ZodType<T>, value: unknown, what: string, provider: string): EnvelopeCheck<T> {
  if (typeof value !== 'object' || value === null || typeof (value as { success?: unknown }).success !== 'boolean') {
    return {
      ok: false,
      error: `web provider "${provider}" returned ${describe(value)} from ${what}, not a {success, data | error} envelope`,
    };
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  return {
    ok: false,
    error: `web provider "${provider}" returned an invalid ${what} envelope: ${explain(parsed.error, value)}`,
  };
}

/** Checks what a provider's search() returned. */
export function checkSearchEnvelope(value: unknown, provider: string): EnvelopeCheck<WebSearchResponse> {
  return check(searchEnvelope, value, 'search()', provider);
}

/** Checks what a provider's extract() or crawl() returned. */
export function checkExtractEnvelope(
  value: unknown,
  provider: string,
  method: 'extract()' | 'crawl()' = 'extract()',
): EnvelopeCheck<WebExtractResponse> {
  return check(extractEnvelope, value, method, provider);
}

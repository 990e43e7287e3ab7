/**
 * Helpers for web providers that call a JSON HTTP API: one request with a bounded answer size,
 * errors that name the service, the status and the service's own message. Uses the global
 * fetch, so a provider needs nothing installed.
 */

import { ERROR_CODES, HermesError } from '@hermes/protocol';

/** Largest JSON answer read from a provider API. */
export const WEB_API_MAX_BYTES = 8 * 1024 * 1024;

export interface WebApiRequest {
  method?: 'GET' | 'POST' | 'DELETE';
  headers?: Record<string, string>;
  /** query parameters; undefined values are left out */
  query?: Record<string, string | number | boolean | undefined>;
  /** sent as JSON */
  body?: unknown;
  /** pass the options.signal the tool gave you: it carries the timeout and interruption */
  signal?: AbortSignal;
  /** default WEB_API_MAX_BYTES */
  maxBytes?: number;
}

/**
 * A failed API call (`HERMES_WEB_PROVIDER`): `status` is null when no HTTP answer came (network
 * error, timeout). `retryable` when no answer came, or it was HTTP 408, 429 or 5xx.
 */
export class WebApiError extends HermesError {
  readonly service: string;
  readonly status: number | null;
  /** the parsed error body, when there was one */
  readonly body: unknown;
  constructor(service: string, message: string, status: number | null, body: unknown = null) {
    super(ERROR_CODES.WEB_PROVIDER, message, {
      retryable: status === null || status === 408 || status === 429 || status >= 500,
    });
    this.name = 'WebApiError';
    this.service = service;
    this.status = status;
    this.body = body;
  }
}

/** `base` joined with `path` (a base path such as `/v2/` is kept) and the defined query parameters. */
export function apiUrl(base: string, path: string, query: WebApiRequest['query'] = {}): URL {
  const url = new URL(path.replace(/^\/+/, ''), base.endsWith('/') ? base : `${base}/`);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
  return url;
}

/** The message inside a typical API error body (`{error: {message}}`, `{message}`, `{error}`, `{detail}`). */
export function apiErrorMessage(body: unknown): string | null {
  if (typeof body === 'string') {
    // an HTML error page says it in its text
    const text = body.includes('<') ? body.replace(/<(script|style)[\s\S]*?<\/\1>|<[^>]*>/gi, ' ') : body;
    return text.replace(/\s+/g, ' ').trim().slice(0, 300) || null;
  }
  if (typeof body !== 'object' || body === null) return null;
  const b = body as Record<string, unknown>;
  for (const key of ['error', 'message', 'detail', 'details']) {
    const v = b[key];
    if (typeof v === 'string' && v.trim() !== '') return v.trim().slice(0, 300);
    if (typeof v === 'object' && v !== null) {
      const inner = apiErrorMessage(v);
      if (inner) return inner;
    }
  }
  return null;
}

/** The code of what failed underneath fetch (`ECONNREFUSED`), else its message. */
export function causeCode(err: unknown): string {
  let e: unknown = err;
  for (let i = 0; i < 4 && e instanceof Error; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = e.cause ?? (e instanceof AggregateError ? e.errors[0] : undefined);
  }
  return err instanceof Error ? err.message : String(err);
}

/** The body as text, at most `maxBytes` (a longer one is refused with a WebApiError naming `service`). */
export async function readLimited(res: Response, maxBytes: number, service: string): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new WebApiError(service, `${service} answered more than ${maxBytes} bytes`, res.status);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Sends one request and resolves with the parsed JSON answer; rejects with a WebApiError. */
export async function requestJson(service: string, url: string | URL, request: WebApiRequest = {}): Promise<unknown> {
  const target = new URL(String(url));
  for (const [k, v] of Object.entries(request.query ?? {})) if (v !== undefined) target.searchParams.set(k, String(v));
  const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
  let body: string | undefined;
  if (request.body !== undefined) {
    body = JSON.stringify(request.body);
    headers['content-type'] ??= 'application/json';
  }
  let res: Response;
  try {
    res = await fetch(target, {
      method: request.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      ...(body === undefined ? {} : { body }),
      ...(request.signal ? { signal: request.signal } : {}),
    });
  } catch (err) {
    if (request.signal?.aborted) {
      throw new WebApiError(service, `${service} did not answer in time (or the call was interrupted)`, null);
    }
    throw new WebApiError(service, `cannot reach ${service} at ${target.origin}: ${causeCode(err)}`, null);
  }
  let text: string;
  try {
    text = await readLimited(res, request.maxBytes ?? WEB_API_MAX_BYTES, service);
  } catch (err) {
    if (err instanceof WebApiError) throw err;
    throw new WebApiError(service, `${service} answer was cut off: ${causeCode(err)}`, res.status);
  }
  let parsed: unknown = text;
  try {
    parsed = text === '' ? null : JSON.parse(text);
  } catch {
    if (res.ok) throw new WebApiError(service, `${service} answered with something that is not JSON`, res.status, text);
  }
  if (!res.ok) {
    const detail = apiErrorMessage(parsed);
    throw new WebApiError(
      service,
      `${service} answered HTTP ${res.status}${detail ? `: ${detail}` : ''}`,
      res.status,
      parsed,
    );
  }
  return parsed;
}

/** The trimmed value of an env var, or undefined when unset or blank. */
export function envValue(env: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  const v = env[name]?.trim();
  return v ? v : undefined;
}

/** The message of anything thrown, for a `{success: false, error}` envelope. */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** `value` when it is a plain object, else an empty one: for reading API answers defensively. */
export function asObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** `value` when it is an array, else an empty one. */
export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The objects of an array in an API answer (`{}` for an item that is not one; none when `value` is no array). */
export function asObjects(value: unknown): Record<string, unknown>[] {
  return asArray(value).map(asObject);
}

/** `count` brought within 1..`max`: how many results to ask of a service that takes at most `max`. */
export function countWithin(count: number, max: number): number {
  return Math.max(1, Math.min(count, max));
}

/** `value` when it is a string, a number as text, else ''. */
export function asString(value: unknown): string {
  if (typeof value === 'string') return value;
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : '';
}

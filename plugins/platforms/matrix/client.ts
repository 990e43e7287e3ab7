/**
 * The Matrix Client-Server API over the global fetch: the access token in the Authorization header
 * (never in a URL, so no log line carries it), JSON in and out, a timeout per call, and an error
 * answer turned into a MatrixApiError with the server's `errcode` and `retry_after_ms`.
 */

type Json = Record<string, unknown>;

export const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A call the server refused (`errcode` set, or null with the HTTP status) or that got no answer (`status` null). */
export class MatrixApiError extends Error {
  readonly errcode: string | null;
  readonly status: number | null;
  /** `retry_after_ms` of an M_LIMIT_EXCEEDED (or the Retry-After header) */
  readonly retryAfterMs: number | undefined;
  constructor(message: string, errcode: string | null, status: number | null, retryAfterMs?: number) {
    super(message);
    this.name = 'MatrixApiError';
    this.errcode = errcode;
    this.status = status;
    this.retryAfterMs = retryAfterMs;
  }
}

export interface RequestOptions {
  query?: Record<string, string | undefined>;
  body?: unknown;
  signal?: AbortSignal | undefined;
  /** this call's timeout (default: the client's) */
  timeoutMs?: number;
}

export interface MatrixClient {
  readonly homeserverUrl: string;
  /** a JSON call; resolves with the parsed answer */
  request(method: 'GET' | 'POST' | 'PUT', path: string, options?: RequestOptions): Promise<unknown>;
  /** an authenticated GET answered with bytes (media); the Response of a 2xx, else a MatrixApiError */
  download(path: string, signal: AbortSignal | undefined): Promise<Response>;
  /** POST /_matrix/media/v3/upload; resolves with the `mxc://` URI */
  upload(data: Buffer, mimeType: string, fileName: string, signal?: AbortSignal): Promise<string>;
}

/** A path with each `{}` replaced by the next argument, percent-encoded. */
export function apiPath(template: string, ...parts: string[]): string {
  let i = 0;
  return template.replace(/\{\}/g, () => encodeURIComponent(parts[i++] ?? ''));
}

const describeCause = (error: unknown): string => {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = cause instanceof Error ? (cause as { code?: unknown }).code : undefined;
  if (typeof code === 'string') return code;
  return cause instanceof Error ? cause.message : String(cause);
};

/** The MatrixApiError of a non-2xx answer: the standard error body `{ errcode, error, retry_after_ms }`. */
export async function errorOf(what: string, response: Response): Promise<MatrixApiError> {
  const text = await response.text().catch(() => '');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const errcode = isRecord(body) && typeof body.errcode === 'string' ? body.errcode.slice(0, 80) : null;
  const said = isRecord(body) && typeof body.error === 'string' ? body.error.slice(0, 200) : text.slice(0, 120);
  const header = Number(response.headers.get('retry-after'));
  const retryAfterMs =
    isRecord(body) && typeof body.retry_after_ms === 'number' && body.retry_after_ms >= 0
      ? body.retry_after_ms
      : Number.isFinite(header) && header > 0
        ? header * 1000
        : undefined;
  const message = `${what} answered HTTP ${response.status}${errcode === null ? '' : ` ${errcode}`}: ${said}`;
  return new MatrixApiError(message, errcode, response.status, retryAfterMs);
}

/** Creates the client; nothing is sent before a call. */
export function createMatrixClient(options: {
  homeserverUrl: string;
  accessToken: string;
  timeoutMs: number;
}): MatrixClient {
  const auth = { authorization: `Bearer ${options.accessToken}` };

  async function call(
    method: string,
    path: string,
    init: { headers?: Record<string, string>; body?: string | Uint8Array; query?: RequestOptions['query'] },
    signal: AbortSignal | undefined,
    timeoutMs: number,
  ): Promise<Response> {
    const what = `${method} ${path}`;
    const url = new URL(`${options.homeserverUrl}${path}`);
    for (const [key, value] of Object.entries(init.query ?? {}))
      if (value !== undefined) url.searchParams.set(key, value);
    const timeout = AbortSignal.timeout(timeoutMs);
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: { ...auth, ...init.headers },
        ...(init.body === undefined ? {} : { body: init.body }),
        signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      const why = timeout.aborted ? `no answer within ${timeoutMs} ms` : describeCause(error);
      throw new MatrixApiError(`${what}: ${why}`, null, null);
    }
    if (!response.ok) throw await errorOf(what, response);
    return response;
  }

  return {
    homeserverUrl: options.homeserverUrl,
    async request(method, path, request = {}) {
      const response = await call(
        method,
        path,
        {
          ...(request.query === undefined ? {} : { query: request.query }),
          ...(request.body === undefined
            ? {}
            : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(request.body) }),
        },
        request.signal,
        request.timeoutMs ?? options.timeoutMs,
      );
      const text = await response.text();
      try {
        return text === '' ? {} : (JSON.parse(text) as unknown);
      } catch {
        throw new MatrixApiError(
          `${method} ${path} answered HTTP ${response.status} with a body that is not JSON`,
          null,
          200,
        );
      }
    },
    download: (path, signal) => call('GET', path, {}, signal, options.timeoutMs),
    async upload(data, mimeType, fileName, signal) {
      const path = '/_matrix/media/v3/upload';
      const response = await call(
        'POST',
        path,
        { headers: { 'content-type': mimeType }, body: new Uint8Array(data), query: { filename: fileName } },
        signal,
        options.timeoutMs,
      );
      const body = (await response.json().catch(() => undefined)) as unknown;
      const uri = isRecord(body) ? body.content_uri : undefined;
      if (typeof uri !== 'string' || !uri.startsWith('mxc://')) {
        throw new MatrixApiError(`POST ${path} answered no content_uri`, null, 200);
      }
      return uri;
    },
  };
}

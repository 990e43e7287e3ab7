/**
 * The Graph API calls of the WhatsApp Cloud API over the global fetch: the bearer token on every
 * call, a timeout, and Meta's error body (`{ error: { message, type, code, error_data: { details } } }`)
 * turned into a GraphError the callers branch on by its code. The token never reaches a message.
 */

export interface GraphClientOptions {
  /** the Graph API base with its version, no trailing slash */
  apiUrl: string;
  token: string;
  timeoutMs: number;
}

/** A call the Graph API refused (`status` set, `code` from its error body) or that got no answer (`status` null). */
export class GraphError extends Error {
  readonly status: number | null;
  /** Meta's error code (130429, 131047, ...), when the answer carried one */
  readonly code: number | undefined;
  /** the `retry-after` header in ms, when the answer had one */
  readonly retryAfterMs: number | undefined;
  constructor(message: string, status: number | null, code?: number, retryAfterMs?: number) {
    super(message);
    this.name = 'GraphError';
    this.status = status;
    this.code = code;
    this.retryAfterMs = retryAfterMs;
  }
}

type Json = Record<string, unknown>;

export const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `(#131047) Re-engagement message: <details>` from Meta's error body, cut short. */
function graphErrorText(body: unknown): { code: number | undefined; text: string } {
  const error = isRecord(body) && isRecord(body.error) ? body.error : undefined;
  if (error === undefined) return { code: undefined, text: '' };
  const code = typeof error.code === 'number' ? error.code : undefined;
  const message = typeof error.message === 'string' ? error.message : '';
  const details =
    isRecord(error.error_data) && typeof error.error_data.details === 'string' ? error.error_data.details : '';
  const text = details !== '' && !message.includes(details) ? `${message}: ${details}` : message;
  return { code, text: text.slice(0, 300) };
}

function retryAfter(headers: Headers): number | undefined {
  const value = headers.get('retry-after');
  if (value === null || !/^\d+$/.test(value.trim())) return undefined;
  return Number(value.trim()) * 1000;
}

const describeCause = (error: unknown): string => {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = cause instanceof Error ? (cause as { code?: unknown }).code : undefined;
  if (typeof code === 'string') return code;
  return cause instanceof Error ? cause.message : String(cause);
};

export interface GraphClient {
  /** a JSON call (`body` sent as JSON when given); resolves with the parsed answer */
  json(method: 'GET' | 'POST', path: string, body?: unknown, signal?: AbortSignal): Promise<Json>;
  /** a multipart POST (media upload) */
  form(path: string, form: FormData, signal?: AbortSignal): Promise<Json>;
  /** a GET of bytes with the bearer token (a media URL the API handed out) */
  bytes(url: string, signal?: AbortSignal, maxBytes?: number): Promise<Buffer>;
}

/** Creates the client; nothing is sent before a call. */
export function createGraphClient(options: GraphClientOptions): GraphClient {
  const auth = { authorization: `Bearer ${options.token}` };
  const hide = (text: string) => text.split(options.token).join('<token>');
  const signalOf = (signal: AbortSignal | undefined): AbortSignal => {
    const timeout = AbortSignal.timeout(options.timeoutMs);
    return signal === undefined ? timeout : AbortSignal.any([signal, timeout]);
  };

  async function call(what: string, url: string, init: RequestInit, signal?: AbortSignal): Promise<Response> {
    try {
      return await fetch(url, { ...init, signal: signalOf(signal) });
    } catch (error) {
      if (signal?.aborted) throw error;
      const why =
        error instanceof Error && error.name === 'TimeoutError'
          ? `no answer within ${options.timeoutMs} ms`
          : describeCause(error);
      throw new GraphError(hide(`${what}: ${why}`), null);
    }
  }

  async function answer(what: string, response: Response): Promise<Json> {
    const text = await response.text();
    let body: unknown;
    try {
      body = text === '' ? {} : JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (response.ok && isRecord(body)) return body;
    const { code, text: said } = graphErrorText(body);
    const status = response.ok ? 502 : response.status;
    const detail = said !== '' ? said : response.ok ? 'an answer that is not a JSON object' : text.slice(0, 120);
    throw new GraphError(
      hide(`${what} answered HTTP ${response.status}${code === undefined ? '' : ` (code ${code})`}: ${detail}`),
      status,
      code,
      retryAfter(response.headers),
    );
  }

  const urlOf = (path: string) => `${options.apiUrl}/${path.replace(/^\/+/, '')}`;
  const label = (method: string, path: string) => `${method} /${path.replace(/^\/+/, '').split('?')[0]}`;

  return {
    async json(method, path, body, signal) {
      const what = label(method, path);
      const init: RequestInit =
        body === undefined
          ? { method, headers: auth }
          : { method, headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) };
      return answer(what, await call(what, urlOf(path), init, signal));
    },
    async form(path, form, signal) {
      const what = label('POST', path);
      return answer(what, await call(what, urlOf(path), { method: 'POST', headers: auth, body: form }, signal));
    },
    async bytes(url, signal, maxBytes) {
      const what = 'GET of the media URL';
      const response = await call(what, url, { headers: auth }, signal);
      if (!response.ok) {
        await response.body?.cancel();
        throw new GraphError(`${what} answered HTTP ${response.status}`, response.status);
      }
      const data = Buffer.from(await response.arrayBuffer());
      if (maxBytes !== undefined && data.length > maxBytes) {
        throw new GraphError(`${what}: ${data.length} bytes, over the ${maxBytes}-byte limit`, response.status);
      }
      return data;
    },
  };
}

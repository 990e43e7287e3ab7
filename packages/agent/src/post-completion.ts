/**
 * A non-streaming Chat Completions POST straight over the keep-alive undici pool, without the
 * openai SDK: per request the SDK builds its header set, a debug-log record (even with logging off),
 * a fetch `Request`/`Response` pair with web streams and `Headers`, which cost about as much CPU as
 * the HTTP exchange itself (measured with test/bench/profile-pipeline.ts). Failures come out as the
 * SDK's own error classes, built the way the SDK builds them, so ModelClient classifies them the same.
 */
import OpenAI from 'openai';
import type { Dispatcher } from 'undici';

export interface PostCompletionOptions {
  dispatcher: Dispatcher;
  /** `http://host:port` */
  origin: string;
  /** path and query, `/v1/chat/completions` */
  path: string;
  apiKey: string;
  /** extra request headers (a provider profile's); they never replace the ones below */
  headers?: Readonly<Record<string, string>> | undefined;
  /** the request body's JSON: text, bytes, or chunks of bytes in order (sent with their total length) */
  body: string | Buffer | readonly Buffer[];
  /** until the answer's headers (a JSON completion's come when the model has finished): undici's own timer */
  firstByteMs: number;
  /** between the answer's body chunks */
  idleMs: number;
  signal?: AbortSignal | undefined;
}

export interface PostedCompletion {
  status: number;
  /** the parsed JSON body; the text itself when the answer is not JSON (as the SDK returns it) */
  data: unknown;
}

const USER_AGENT = 'hermes-gateway';

function byteLength(chunks: readonly Buffer[]): number {
  let n = 0;
  for (const chunk of chunks) n += chunk.length;
  return n;
}

/** POSTs `body`; resolves with a 2xx answer, rejects with OpenAI.APIError / APIConnectionError / ... otherwise. */
export async function postCompletion(options: PostCompletionOptions): Promise<PostedCompletion> {
  const { signal } = options;
  if (signal?.aborted) throw new OpenAI.APIUserAbortError();
  let res: Dispatcher.ResponseData;
  let text: string;
  try {
    res = await options.dispatcher.request({
      origin: options.origin,
      path: options.path,
      method: 'POST',
      headers: {
        ...options.headers,
        accept: 'application/json',
        'content-type': 'application/json',
        authorization: `Bearer ${options.apiKey}`,
        'user-agent': USER_AGENT,
        ...(Array.isArray(options.body) ? { 'content-length': String(byteLength(options.body)) } : {}),
      },
      // chunks go as an iterable, which undici writes in order (its dispatch docs take an Iterable;
      // request()'s type does not say so)
      body: options.body as string | Buffer,
      headersTimeout: options.firstByteMs,
      bodyTimeout: options.idleMs,
      signal: signal ?? null,
    });
    text = await res.body.text();
  } catch (err) {
    throw connectionFailure(err, signal);
  }
  const status = res.statusCode;
  if (status < 200 || status > 299) {
    const json = safeJson(text);
    throw OpenAI.APIError.generate(status, json as object | undefined, json ? undefined : text, toHeaders(res.headers));
  }
  if (status === 204) return { status, data: null };
  const contentType = header(res.headers, 'content-type');
  const mediaType = contentType?.split(';')[0]?.trim();
  if (mediaType?.includes('application/json') || mediaType?.endsWith('+json')) {
    if (header(res.headers, 'content-length') === '0') return { status, data: undefined };
    return { status, data: JSON.parse(text) as unknown };
  }
  return { status, data: text };
}

/** The SDK's reading of a failed exchange: the caller's abort, a timeout, or a connection error. */
function connectionFailure(err: unknown, signal: AbortSignal | undefined): Error {
  if (signal?.aborted) return new OpenAI.APIUserAbortError();
  // undici's HeadersTimeoutError, BodyTimeoutError and ConnectTimeoutError, as the SDK recognizes
  // them, with undici's error as the cause (its code says which timeout fired: model-failure.ts)
  const text = err instanceof Error ? `${String(err)}${'cause' in err ? String(err.cause) : ''}` : String(err);
  if (/timed? ?out/i.test(text)) return Object.assign(new OpenAI.APIConnectionTimeoutError(), { cause: err });
  // the global fetch's shape (TypeError "fetch failed" with the socket error as its cause), which
  // ModelClient unwraps for the error code (ECONNREFUSED, ENOTFOUND, ...)
  return new OpenAI.APIConnectionError({
    message: 'Connection error.',
    cause: new TypeError('fetch failed', { cause: err }),
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

function toHeaders(headers: Record<string, string | string[] | undefined>): Headers {
  const out = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value === 'string') out.set(name, value);
    else if (Array.isArray(value)) for (const v of value) out.append(name, v);
  }
  return out;
}

/**
 * A non-streaming Chat Completions POST straight over the keep-alive undici pool, without the
 * openai SDK: per request the SDK builds its header set, a debug-log record (even with logging off),
 * a fetch `Request`/`Response` pair with web streams and `Headers`, which cost about as much CPU as
 * the HTTP exchange itself (measured with test/bench/profile-pipeline.ts). Failures come out as the
 * SDK's own error classes, built the way the SDK builds them, so ModelClient classifies them the same.
 */
import { answerBytes, type BufferedAnswer, bufferedExchange } from '@hermes/protocol';
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

/** Chunks shorter than this are copied together; a longer one (a long chat's kept history) goes as it is. */
export const COPIED_BELOW = 16 * 1024;

/**
 * The body as undici writes it best: one Buffer when it can be (one write of the request, headers
 * included), else as few chunks as the long ones allow. undici writes each chunk of an iterable
 * body in a write of its own (a syscall and a TCP segment each, and an await between them): the
 * dozen small pieces of a fresh chat's body cost three times the whole exchange.
 */
export function requestBody(body: string | Buffer | readonly Buffer[]): string | Buffer | Buffer[] {
  if (!Array.isArray(body)) return body as string | Buffer;
  const out: Buffer[] = [];
  let small: Buffer[] = [];
  const flush = () => {
    if (small.length > 0) out.push(small.length === 1 ? (small[0] as Buffer) : Buffer.concat(small));
    small = [];
  };
  for (const chunk of body as readonly Buffer[]) {
    if (chunk.length < COPIED_BELOW) {
      small.push(chunk);
      continue;
    }
    flush();
    out.push(chunk);
  }
  flush();
  return out.length === 1 ? (out[0] as Buffer) : out;
}

/** POSTs `body`; resolves with a 2xx answer, rejects with OpenAI.APIError / APIConnectionError / ... otherwise. */
export async function postCompletion(options: PostCompletionOptions): Promise<PostedCompletion> {
  const { signal } = options;
  if (signal?.aborted) throw new OpenAI.APIUserAbortError();
  let res: BufferedAnswer;
  try {
    res = await exchange(options);
  } catch (err) {
    throw connectionFailure(err, signal);
  }
  const { status, rawHeaders } = res;
  const text = answerBytes(res).toString('utf8');
  if (status < 200 || status > 299) {
    const json = safeJson(text);
    const headers = toHeaders(rawHeaders);
    throw OpenAI.APIError.generate(status, json as object | undefined, json ? undefined : text, headers);
  }
  if (status === 204) return { status, data: null };
  const mediaType = rawHeader(rawHeaders, 'content-type')?.split(';')[0]?.trim();
  if (mediaType?.includes('application/json') || mediaType?.endsWith('+json')) {
    if (rawHeader(rawHeaders, 'content-length') === '0') return { status, data: undefined };
    return { status, data: JSON.parse(text) as unknown };
  }
  return { status, data: text };
}

/** One exchange through the pool's `dispatch` (bufferedExchange: no `request()` per exchange). */
function exchange(options: PostCompletionOptions): Promise<BufferedAnswer> {
  const sent = requestBody(options.body);
  return bufferedExchange(
    options.dispatcher,
    {
      origin: options.origin,
      path: options.path,
      method: 'POST',
      headers: {
        ...options.headers,
        accept: 'application/json',
        'content-type': 'application/json',
        authorization: `Bearer ${options.apiKey}`,
        'user-agent': USER_AGENT,
        ...(Array.isArray(sent) ? { 'content-length': String(byteLength(sent)) } : {}),
      },
      // chunks go as an iterable, which undici writes in order (its dispatch docs take an Iterable)
      body: sent as string | Buffer,
      headersTimeout: options.firstByteMs,
      bodyTimeout: options.idleMs,
    },
    { signal: options.signal },
  );
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

/** The value of header `name` (lower case) in a raw header list, joined when repeated. */
function rawHeader(raw: readonly Buffer[], name: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const key = raw[i] as Buffer;
    if (key.length !== name.length || key.toString('latin1').toLowerCase() !== name) continue;
    const v = (raw[i + 1] as Buffer).toString('latin1');
    value = value === undefined ? v : `${value}, ${v}`;
  }
  return value;
}

function toHeaders(raw: readonly Buffer[]): Headers {
  const out = new Headers();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    out.append((raw[i] as Buffer).toString('latin1'), (raw[i + 1] as Buffer).toString('latin1'));
  }
  return out;
}

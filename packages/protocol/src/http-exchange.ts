/**
 * One HTTP exchange over `node:http`/`node:https` with keep-alive agents: what the model client
 * (non-streaming completions, and the openai SDK's `fetch` for streaming ones) and the Telegram
 * adapter (grammy's `fetch`) send their requests with. Node parses HTTP natively; the global fetch,
 * undici's `request` (llhttp in WebAssembly) and node-fetch each cost more CPU per exchange, which
 * at three exchanges per message is a large share of the gateway's time (docs/performance.md).
 * Redirects are not followed; a compressed answer is inflated by `readBody`.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

/** A keep-alive agent per scheme. */
export interface KeepAliveAgents {
  http: HttpAgent;
  https: HttpsAgent;
}

export type HttpBody = string | Uint8Array | AsyncIterable<Uint8Array | string> | null | undefined;

export interface HttpExchangeOptions {
  method?: string;
  headers?: Record<string, string | number>;
  body?: HttpBody;
  /** default: the agent of `agents` for the URL's scheme */
  agent?: HttpAgent | HttpsAgent;
  agents?: KeepAliveAgents;
  signal?: AbortSignal | null | undefined;
  /**
   * how long the socket may stay silent, waiting for the answer's headers or between its body
   * chunks; past it the exchange fails with an `HttpTimeoutError` (the socket's own timer)
   */
  idleTimeoutMs?: number;
}

/** The exchange's socket was silent for longer than `idleTimeoutMs`. */
export class HttpTimeoutError extends Error {
  readonly code = 'ETIMEDOUT';
  constructor(ms: number) {
    super(`HTTP exchange timed out: no data for ${ms} ms`);
    this.name = 'HttpTimeoutError';
  }
}

/** Idle keep-alive sockets are closed after this long. */
const KEEP_ALIVE_MS = 30_000;

/** Keep-alive agents (Nagle off: a request leaves in one segment, without waiting for an ACK). */
export function createKeepAliveAgents(maxSockets = 64): KeepAliveAgents {
  const options = { keepAlive: true, keepAliveMsecs: 1_000, timeout: KEEP_ALIVE_MS, maxSockets, noDelay: true };
  return { http: new HttpAgent(options), https: new HttpsAgent(options) };
}

let sharedAgents: KeepAliveAgents | null = null;
/** One pair of keep-alive agents per process, for callers that bring none. */
export function defaultKeepAliveAgents(): KeepAliveAgents {
  sharedAgents ??= createKeepAliveAgents();
  return sharedAgents;
}

/** Sends one request; resolves with the answer once its headers are in (its body not yet read). */
export function httpExchange(url: string, options: HttpExchangeOptions = {}): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const https = url.startsWith('https:');
    const agents = options.agents ?? defaultKeepAliveAgents();
    const headers: Record<string, string | number> = { ...options.headers };
    const body = options.body;
    const whole = body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array;
    if (typeof body === 'string' || body instanceof Uint8Array) headers['content-length'] = Buffer.byteLength(body);
    const request: RequestOptions = {
      method: options.method ?? 'GET',
      headers,
      agent: options.agent ?? (https ? agents.https : agents.http),
      ...(options.signal ? { signal: options.signal } : {}),
    };
    const req = (https ? httpsRequest : httpRequest)(url, request, (res) => {
      // until the body is read, the same socket timer watches the gaps between its chunks
      res.on('end', () => req.setTimeout(0));
      resolve(res);
    });
    req.on('error', reject);
    const idle = options.idleTimeoutMs;
    if (idle !== undefined && idle > 0) {
      const timedOut = () => req.destroy(new HttpTimeoutError(idle));
      req.setTimeout(idle, timedOut); // from the connection on
      req.once('socket', (socket) => {
        if (!socket.connecting) return;
        // and while connecting (a fresh socket; a kept-alive one is connected already)
        socket.setTimeout(idle);
        socket.once('timeout', timedOut);
        socket.once('connect', () => socket.off('timeout', timedOut));
      });
    }
    if (whole) {
      req.end(body ?? undefined);
      return;
    }
    void (async () => {
      try {
        for await (const chunk of body) {
          if (req.destroyed) return;
          if (!req.write(chunk)) {
            await new Promise((drained) => {
              req.once('drain', drained);
              req.once('close', drained);
            });
          }
        }
        req.end();
      } catch (error) {
        req.destroy(error instanceof Error ? error : new Error(String(error)));
      }
    })();
  });
}

/** Reads an answer's whole body, inflated when it came gzip, deflate or br encoded. */
export function readBody(res: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('error', reject);
    // the socket closed before the body was whole (a timeout or abort destroys the request)
    res.on('aborted', () => reject(new Error('HTTP answer cut off before its end')));
    res.on('end', () => {
      try {
        const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
        const encoding = res.headers['content-encoding'];
        resolve(
          encoding === 'gzip'
            ? gunzipSync(bytes)
            : encoding === 'deflate'
              ? inflateSync(bytes)
              : encoding === 'br'
                ? brotliDecompressSync(bytes)
                : bytes,
        );
      } catch (error) {
        reject(error);
      }
    });
  });
}

type FetchInit = NonNullable<Parameters<typeof fetch>[1]>;

/**
 * A `fetch` over `httpExchange` for clients that take one (the openai SDK): string and byte
 * bodies; event streams come through as a web stream as they arrive, other answers are read
 * whole. Requests it cannot send that way (a `Request` object, a web-stream or form body) go to
 * the global fetch unchanged. Failures have the global fetch's shape: `TypeError('fetch failed')`
 * with the socket error as its cause, or the signal's AbortError.
 */
export function createHttpFetch(agents: KeepAliveAgents = defaultKeepAliveAgents()): typeof fetch {
  const httpFetch = async (input: string | URL | Request, init?: FetchInit): Promise<Response> => {
    const body = init?.body;
    const plain = body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array;
    if (input instanceof Request || !plain) return fetch(input, init);
    const url = typeof input === 'string' ? input : input.href;
    const method = (init?.method ?? 'GET').toUpperCase();
    let res: IncomingMessage;
    try {
      res = await httpExchange(url, {
        method,
        headers: headerRecord(init?.headers),
        body,
        agents,
        signal: init?.signal,
      });
    } catch (error) {
      throw fetchFailure(error, init?.signal);
    }
    const status = res.statusCode ?? 0;
    const headers = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (typeof value === 'string') headers.set(name, value);
      else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    }
    const statusText = res.statusMessage ?? '';
    if (method === 'HEAD' || status === 204 || status === 304) {
      res.resume();
      return new Response(null, { status, statusText, headers });
    }
    if ((headers.get('content-type') ?? '').includes('text/event-stream') && !headers.has('content-encoding')) {
      return new Response(webStream(res, init?.signal), { status, statusText, headers });
    }
    let bytes: Buffer;
    try {
      bytes = await readBody(res);
    } catch (error) {
      throw fetchFailure(error, init?.signal);
    }
    // the body is already inflated: a Response must not announce an encoding it no longer has
    headers.delete('content-encoding');
    headers.delete('content-length');
    return new Response(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
      status,
      statusText,
      headers,
    });
  };
  return httpFetch as typeof fetch;
}

/**
 * The answer's body as a web stream, read as the consumer pulls; cut off by the signal, it fails
 * with the signal's reason (an AbortError, as the global fetch's body does), else with the socket error.
 */
function webStream(res: IncomingMessage, signal: AbortSignal | null | undefined): ReadableStream<Uint8Array> {
  let settled = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const fail = (error: unknown) => {
        if (settled) return;
        settled = true;
        controller.error(signal?.aborted ? (signal.reason ?? error) : error);
      };
      res.on('data', (chunk: Buffer) => {
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 1) <= 0) res.pause();
      });
      res.on('end', () => {
        if (settled) return;
        settled = true;
        controller.close();
      });
      res.on('error', fail);
      res.on('close', () => {
        if (!res.complete) fail(new Error('HTTP answer cut off before its end'));
      });
    },
    pull() {
      res.resume();
    },
    cancel() {
      settled = true;
      res.destroy();
    },
  });
}

function fetchFailure(error: unknown, signal: AbortSignal | null | undefined): unknown {
  if (signal?.aborted) return signal.reason ?? error;
  if (error instanceof Error && error.name === 'AbortError') return error;
  return new TypeError('fetch failed', { cause: error });
}

function headerRecord(headers: FetchInit['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  if (headers instanceof Headers) {
    headers.forEach((value, name) => {
      out[name] = value;
    });
  } else if (Array.isArray(headers)) {
    for (const [name, value] of headers) if (name !== undefined && value !== undefined) out[name] = value;
  } else {
    for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name] = String(value);
  }
  return out;
}

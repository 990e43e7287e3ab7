/**
 * The Web API client's `fetch` (@slack/web-api's `fetch` option): a form-encoded POST through an
 * undici Agent of the adapter's own (keep-alive), with a handler that keeps the answer's chunks.
 * Node's global fetch, the client's default, builds a Request, a Headers object, web streams for
 * both bodies and a Response per call: about a fifth of the gateway's CPU per message on the Slack
 * pipeline bench, where chat.postMessage is one call per message. Client CPU per call against a
 * local server, 16 to 64 at once: Node's fetch ~190 µs, node:http ~80 µs, this ~30 µs. The client
 * reads only status, headers, `url` and the body as text or bytes of what this returns. As with
 * fetch: a signal that aborts rejects with its reason, and so does the timeout, `redirect: 'error'`
 * rejects a 3xx answer, a compressed answer is inflated, a failed exchange rejects with a TypeError
 * `fetch failed` whose cause says why. Any other call (a FormData upload, a redirect to follow)
 * goes to `fallback`.
 */
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { bufferedExchange } from '@hermes/protocol';
import type { webApi } from '@slack/bolt';
import { Agent } from 'undici';

type FetchFunction = webApi.FetchFunction;
type FetchInit = NonNullable<Parameters<FetchFunction>[1]>;
type FetchResponse = Awaited<ReturnType<FetchFunction>>;

export interface WebFetch {
  fetch: FetchFunction;
  /** closes the agent's connections (the adapter stopped); a later call opens new ones */
  close(): void;
}

/** What fetch rejects with when the exchange fails: `fetch failed`, the reason as its cause. */
function failed(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause });
}

/** The answer's headers by lower-case name, repeated ones joined as fetch joins them. */
function headerMap(raw: readonly Buffer[]): Map<string, string> {
  const map = new Map<string, string>();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as Buffer).toString('latin1').toLowerCase();
    const value = (raw[i + 1] as Buffer).toString('latin1');
    const known = map.get(name);
    map.set(name, known === undefined ? value : `${known}, ${value}`);
  }
  return map;
}

function inflate(encoding: string | undefined, bytes: Buffer): Buffer {
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return gunzipSync(bytes);
    case 'deflate':
      return inflateSync(bytes);
    case 'br':
      return brotliDecompressSync(bytes);
    default:
      return bytes;
  }
}

function answer(
  url: string,
  status: number,
  statusText: string,
  raw: readonly Buffer[],
  chunks: Buffer[],
): FetchResponse {
  const headers = headerMap(raw);
  const joined = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
  const bytes = inflate(headers.get('content-encoding'), joined);
  let text: string | undefined;
  const asText = (): string => {
    text ??= bytes.toString('utf8');
    return text;
  };
  return {
    ok: status >= 200 && status < 300,
    status,
    statusText,
    url,
    headers: { get: (name) => headers.get(name.toLowerCase()) ?? null, entries: () => headers.entries() },
    text: async () => asText(),
    json: async () => JSON.parse(asText()) as unknown,
    arrayBuffer: async () => new Uint8Array(bytes).buffer,
  };
}

const isRedirect = (status: number): boolean => status >= 300 && status < 400 && status !== 304;

interface Target {
  href: string;
  origin: string;
  path: string;
}

/** The http(s) URL's parts undici takes, or null for any other URL (or none). */
function targetOf(input: string | URL): Target | null {
  let url: URL;
  try {
    url = typeof input === 'string' ? new URL(input) : input;
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return { href: url.href, origin: url.origin, path: `${url.pathname}${url.search}` };
}

/** Web API calls go to a handful of method URLs: each is parsed once. */
const TARGETS_MAX = 256;

export interface WebFetchOptions {
  /**
   * Each call it takes fails after this long, with the reason AbortSignal.timeout gives (the
   * WebClient's own `timeout` makes an AbortSignal.timeout and an abort listener per call; this is
   * one timer); 0: none. A call that brings its own signal is stopped by either.
   */
  timeoutMs?: number;
  /** serves the calls this does not take (default: Node's fetch) */
  fallback?: FetchFunction;
}

function timeoutError(): DOMException {
  return new DOMException('The operation was aborted due to timeout', 'TimeoutError');
}

/** Creates the fetch with its own agent. */
export function createWebFetch(options: WebFetchOptions = {}): WebFetch {
  const fallback = options.fallback ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 0;
  let agent = new Agent();
  const targets = new Map<string, Target | null>();
  const target = (input: string | URL): Target | null => {
    if (typeof input !== 'string') return targetOf(input);
    let known = targets.get(input);
    if (known === undefined) {
      if (targets.size >= TARGETS_MAX) targets.clear();
      known = targetOf(input);
      targets.set(input, known);
    }
    return known;
  };

  const post = async (url: Target, init: FetchInit, body: string | undefined): Promise<FetchResponse> => {
    const got = await bufferedExchange(
      agent,
      {
        origin: url.origin,
        path: url.path,
        method: init.method ?? 'GET',
        headers: init.headers ?? {},
        body: body ?? null,
      },
      { signal: init.signal, timeoutMs, timeoutReason: timeoutError, failed },
    );
    if (isRedirect(got.status) && headerMap(got.rawHeaders).has('location')) {
      throw failed(new Error(`redirect mode is set to error (HTTP ${got.status})`));
    }
    try {
      return answer(url.href, got.status, got.statusText, got.rawHeaders, got.chunks);
    } catch (error) {
      throw failed(error); // a compressed answer that does not inflate
    }
  };

  return {
    fetch: (input, init = {}) => {
      const { body } = init;
      const url = target(input);
      if ((body !== undefined && typeof body !== 'string') || init.redirect !== 'error' || url === null) {
        // the WebClient's other calls (FormData uploads) keep the timeout; anything else is as given
        const timed = init.redirect === 'error' && init.signal === undefined && timeoutMs > 0;
        return fallback(input, timed ? { ...init, signal: AbortSignal.timeout(timeoutMs) } : init);
      }
      return post(url, init, body);
    },
    close: () => {
      // a closed Agent takes no more requests: the next call (a restart) gets a new one
      const closing = agent;
      agent = new Agent();
      void closing.close().catch(() => {});
    },
  };
}

/**
 * The Web API client's `fetch` (@slack/web-api's `fetch` option): a form-encoded POST over
 * node:http(s) with a keep-alive agent of the adapter's own, the answer read whole. Node's global
 * fetch, the client's default, builds a Request, a Headers object, web streams for both bodies and
 * a Response per call: about a fifth of the gateway's CPU per message on the Slack pipeline bench,
 * where chat.postMessage is one call per message. The client reads only status, headers, `url` and
 * the body as text or bytes of what this returns. As with fetch: a signal that aborts rejects with
 * its reason (the client's `timeout`), `redirect: 'error'` rejects a 3xx answer, a compressed
 * answer is inflated. Any other call (a FormData upload, a redirect to follow) goes to `fallback`.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { webApi } from '@slack/bolt';

type FetchFunction = webApi.FetchFunction;
type FetchInit = NonNullable<Parameters<FetchFunction>[1]>;
type FetchResponse = Awaited<ReturnType<FetchFunction>>;

export interface WebFetch {
  fetch: FetchFunction;
  /** closes the agents' idle sockets (the adapter stopped) */
  close(): void;
}

function inflate(res: IncomingMessage, bytes: Buffer): Buffer {
  switch (res.headers['content-encoding']) {
    case 'gzip':
      return gunzipSync(bytes);
    case 'deflate':
      return inflateSync(bytes);
    case 'br':
      return brotliDecompressSync(bytes);
    default:
      return bytes;
  }
}

function headerValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

function answer(url: string, res: IncomingMessage, bytes: Buffer): FetchResponse {
  const status = res.statusCode ?? 0;
  let text: string | undefined;
  const asText = (): string => {
    text ??= bytes.toString('utf8');
    return text;
  };
  return {
    ok: status >= 200 && status < 300,
    status,
    statusText: res.statusMessage ?? '',
    url,
    headers: {
      get: (name) => headerValue(res.headers[name.toLowerCase()]),
      entries: () =>
        Object.entries(res.headers).flatMap(([name, value]): [string, string][] => {
          const joined = headerValue(value);
          return joined === null ? [] : [[name, joined]];
        }),
    },
    text: async () => asText(),
    json: async () => JSON.parse(asText()) as unknown,
    arrayBuffer: async () => new Uint8Array(bytes).buffer,
  };
}

/** What fetch rejects with when the exchange fails: `fetch failed`, the reason as its cause. */
function failed(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause });
}

/** Creates the fetch with its own agents; `fallback` serves the calls it does not take. */
export function createWebFetch(fallback: FetchFunction = globalThis.fetch): WebFetch {
  const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

  const post = (url: string, init: FetchInit, body: string | undefined): Promise<FetchResponse> =>
    new Promise((resolve, reject) => {
      const signal = init.signal;
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const https = url.startsWith('https:');
      const headers: Record<string, string | number> = { ...init.headers };
      if (body !== undefined) headers['content-length'] = Buffer.byteLength(body);
      const options: RequestOptions = {
        method: init.method ?? 'GET',
        headers,
        agent: https ? agents.https : agents.http,
      };
      let settled = false;
      const settle = (): boolean => {
        if (settled) return false;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        return true;
      };
      const fail = (error: unknown): void => {
        if (settle()) reject(error);
      };
      const req = (https ? httpsRequest : httpRequest)(url, options, (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400 && res.headers.location !== undefined) {
          res.resume();
          fail(failed(new Error(`redirect mode is set to error (HTTP ${status})`)));
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', (error) => fail(failed(error)));
        res.on('close', () => fail(failed(new Error('the answer ended early'))));
        res.on('end', () => {
          if (!settle()) return;
          try {
            resolve(
              answer(url, res, inflate(res, chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks))),
            );
          } catch (error) {
            reject(failed(error));
          }
        });
      });
      function onAbort(): void {
        fail(signal?.reason);
        req.destroy();
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      req.on('error', (error) => fail(failed(error)));
      req.end(body);
    });

  return {
    fetch: (input, init = {}) => {
      const url = typeof input === 'string' ? input : input.href;
      const body = init.body;
      const web = url.startsWith('http:') || url.startsWith('https:');
      if ((body !== undefined && typeof body !== 'string') || init.redirect !== 'error' || !web) {
        return fallback(input, init);
      }
      return post(url, init, body);
    },
    close: () => {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

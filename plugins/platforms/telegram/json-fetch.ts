/**
 * grammy's `fetch` (its `client.fetch` option): one request over node:http(s) with the keep-alive
 * agent grammy passes, the answer read whole. grammy only ever calls `res.json()` on what fetch
 * returns; node-fetch, its default in Node, builds a Headers object, a body stream and polyfilled
 * abort signals per call, about a tenth of the gateway's CPU per message (test/bench/profile-gateway.ts).
 * Bodies are strings (JSON calls) or byte streams (multipart uploads); redirects are not followed
 * (the Bot API answers directly); a compressed answer is inflated.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

/** What grammy passes: its JSON or multipart payload plus `baseFetchConfig` (the agent) and a signal. */
interface GrammyInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array | AsyncIterable<Uint8Array | string> | null;
  agent?: HttpAgent;
  signal?: RequestOptions['signal'];
}

/** The part of a fetch Response grammy reads. */
export interface JsonResponse {
  ok: boolean;
  status: number;
  statusText: string;
  text(): Promise<string>;
  json(): Promise<unknown>;
}

const defaultAgents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

function decode(res: IncomingMessage, bytes: Buffer): string {
  const encoding = res.headers['content-encoding'];
  const plain =
    encoding === 'gzip'
      ? gunzipSync(bytes)
      : encoding === 'deflate'
        ? inflateSync(bytes)
        : encoding === 'br'
          ? brotliDecompressSync(bytes)
          : bytes;
  return plain.toString('utf8');
}

function answer(res: IncomingMessage, text: string): JsonResponse {
  const status = res.statusCode ?? 0;
  return {
    ok: status >= 200 && status < 300,
    status,
    statusText: res.statusMessage ?? '',
    text: async () => text,
    json: async () => JSON.parse(text) as unknown,
  };
}

/** One request; resolves once the whole answer is read. */
export function jsonFetch(url: string, init: GrammyInit = {}): Promise<JsonResponse> {
  return new Promise((resolve, reject) => {
    const https = url.startsWith('https:');
    const options: RequestOptions = {
      method: init.method ?? 'GET',
      headers: { ...init.headers },
      agent: init.agent ?? (https ? defaultAgents.https : defaultAgents.http),
      ...(init.signal ? { signal: init.signal } : {}),
    };
    const body = init.body;
    if (typeof body === 'string' || body instanceof Uint8Array) {
      (options.headers as Record<string, string | number>)['content-length'] = Buffer.byteLength(body);
    }
    const req = (https ? httpsRequest : httpRequest)(url, options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        try {
          resolve(answer(res, decode(res, chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks))));
        } catch (error) {
          reject(error);
        }
      });
    });
    req.on('error', reject);
    if (body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array) {
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

/** `jsonFetch` as the `fetch` grammy's client options declare (grammy reads only `json()` of the answer). */
export const grammyFetch = jsonFetch as unknown as typeof fetch;

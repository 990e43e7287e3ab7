/**
 * grammy's `fetch` (its `client.fetch` option): one request over node:http(s) with the keep-alive
 * agent grammy passes, the answer read whole. grammy only ever calls `res.json()` on what fetch
 * returns; node-fetch, its default in Node, builds a Headers object, a body stream and polyfilled
 * abort signals per call, about a tenth of the gateway's CPU per message (test/bench/profile-gateway.ts).
 * Bodies are strings (JSON calls) or byte streams (multipart uploads); redirects are not followed
 * (the Bot API answers directly); a compressed answer is inflated. An API that cannot be reached
 * fails in seconds, not at the operating system's TCP timeout: the connection must be up within
 * CONNECT_TIMEOUT_MS and, once the request is sent, the answer must start within
 * ANSWER_TIMEOUT_MS (plus the long poll's own `timeout` for getUpdates), so the platform's state
 * says `error` with the reason at the first failed attempt.
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

/** Until the TCP connection to the Bot API is up. */
export const CONNECT_TIMEOUT_MS = 10_000;
/** From the request sent to the answer's first byte (a getUpdates long poll adds its own timeout). */
export const ANSWER_TIMEOUT_MS = 20_000;

/** The `timeout` of a getUpdates long poll in ms (0 for every other call). */
function longPollMs(url: string, body: GrammyInit['body']): number {
  if (!url.endsWith('/getUpdates') || typeof body !== 'string') return 0;
  const seconds = /"timeout":\s*(\d+)/.exec(body)?.[1];
  return seconds === undefined ? 0 : Number(seconds) * 1000;
}

function timedOut(message: string): Error {
  return Object.assign(new Error(message), { code: 'ETIMEDOUT' });
}

/** Fails `req` when it does not connect, or is not answered, in time. */
function watchTimeouts(
  req: ReturnType<typeof httpRequest>,
  answerMs: number,
  timeouts: { connectMs: number; answerMs: number },
): void {
  let timer: NodeJS.Timeout | undefined;
  const arm = (ms: number, error: () => Error) => {
    clearTimeout(timer);
    timer = setTimeout(() => req.destroy(error()), ms);
    timer.unref();
  };
  req.once('socket', (socket) => {
    if (!socket.connecting) return;
    arm(timeouts.connectMs, () => timedOut(`no connection to the Bot API within ${timeouts.connectMs / 1000} s`));
    socket.once('connect', () => clearTimeout(timer));
  });
  req.once('finish', () =>
    arm(answerMs, () => timedOut(`the Bot API did not answer within ${Math.round(answerMs / 1000)} s`)),
  );
  req.once('response', () => clearTimeout(timer));
  req.once('close', () => clearTimeout(timer));
}

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
export function jsonFetch(
  url: string,
  init: GrammyInit = {},
  timeouts = { connectMs: CONNECT_TIMEOUT_MS, answerMs: ANSWER_TIMEOUT_MS },
): Promise<JsonResponse> {
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
    watchTimeouts(req, timeouts.answerMs + longPollMs(url, body), timeouts);
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
export const grammyFetch = ((url: string, init?: GrammyInit) => jsonFetch(url, init)) as unknown as typeof fetch;

/** `grammyFetch` whose calls wait at most `answerMs` for their answer once sent (`api_timeout_s`). */
export function grammyFetchWithin(answerMs: number): typeof fetch {
  const timeouts = { connectMs: CONNECT_TIMEOUT_MS, answerMs };
  return ((url: string, init?: GrammyInit) => jsonFetch(url, init, timeouts)) as unknown as typeof fetch;
}

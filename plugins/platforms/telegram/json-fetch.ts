/**
 * grammy's `fetch` (its `client.fetch` option): one request over node:http(s) (the SDK's
 * `httpExchange`, shared with the model client) with the keep-alive agent grammy passes, the
 * answer read whole. grammy only ever calls `res.json()` on what fetch returns; node-fetch, its
 * default in Node, builds a Headers object, a body stream and polyfilled abort signals per call,
 * about a tenth of the gateway's CPU per message (test/bench/profile-gateway.ts). Bodies are
 * strings (JSON calls) or byte streams (multipart uploads); redirects are not followed (the Bot API
 * answers directly); a compressed answer is inflated.
 */
import type { Agent as HttpAgent, RequestOptions } from 'node:http';
import { httpExchange, readBody } from '@hermes/plugin-sdk';

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

/** One request; resolves once the whole answer is read. */
export async function jsonFetch(url: string, init: GrammyInit = {}): Promise<JsonResponse> {
  const res = await httpExchange(url, {
    method: init.method ?? 'GET',
    ...(init.headers ? { headers: init.headers } : {}),
    body: init.body,
    ...(init.agent ? { agent: init.agent } : {}),
    signal: init.signal,
  });
  const text = (await readBody(res)).toString('utf8');
  const status = res.statusCode ?? 0;
  return {
    ok: status >= 200 && status < 300,
    status,
    statusText: res.statusMessage ?? '',
    text: async () => text,
    json: async () => JSON.parse(text) as unknown,
  };
}

/** `jsonFetch` as the `fetch` grammy's client options declare (grammy reads only `json()` of the answer). */
export const grammyFetch = jsonFetch as unknown as typeof fetch;

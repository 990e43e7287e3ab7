// The Web API client's fetch over undici: what @slack/web-api reads of an answer, aborts, redirects,
// compressed answers, early ends, and the calls it leaves to the fallback.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { webApi } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebFetch } from '../web-fetch.js';

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

let server: Server;
let base = '';
const handlers = new Map<string, Handler>();
const connections = new Set<string>();

beforeAll(async () => {
  server = createServer((req, res) => {
    connections.add(`${req.socket.remotePort}`);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handlers.get(req.url ?? '')?.(req, Buffer.concat(chunks).toString('utf8'), res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const post = {
  method: 'POST',
  redirect: 'error',
  headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
} as const;

describe('createWebFetch', () => {
  it('posts the form body and gives back status, headers, url and the body as text, JSON and bytes', async () => {
    let seen: { method?: string; type?: string; length?: string; body?: string } = {};
    handlers.set('/api/chat.postMessage', (req, body, res) => {
      seen = { method: req.method, type: req.headers['content-type'], length: req.headers['content-length'], body };
      res.writeHead(200, { 'content-type': 'application/json', 'x-oauth-scopes': 'chat:write, users:read' });
      res.end('{"ok":true,"ts":"1.000100"}');
    });
    const web = createWebFetch();
    const url = `${base}/api/chat.postMessage`;
    const response = await web.fetch(url, { ...post, body: 'channel=D1&text=h%C3%A9' });
    expect(seen).toEqual({
      method: 'POST',
      type: 'application/x-www-form-urlencoded',
      length: String(Buffer.byteLength('channel=D1&text=h%C3%A9')),
      body: 'channel=D1&text=h%C3%A9',
    });
    expect(response.status).toBe(200);
    expect(response.ok).toBe(true);
    expect(response.url).toBe(url);
    expect(response.headers.get('X-OAuth-Scopes')).toBe('chat:write, users:read');
    expect(response.headers.get('retry-after')).toBeNull();
    expect(Object.fromEntries(response.headers.entries())['content-type']).toBe('application/json');
    expect(await response.text()).toBe('{"ok":true,"ts":"1.000100"}');
    expect(await response.json()).toEqual({ ok: true, ts: '1.000100' });
    expect(new TextDecoder().decode(await response.arrayBuffer())).toBe('{"ok":true,"ts":"1.000100"}');
    web.close();
  });

  it('keeps the connection alive between calls', async () => {
    handlers.set('/api/auth.test', (_req, _body, res) => res.end('{"ok":true}'));
    const web = createWebFetch();
    connections.clear();
    for (let i = 0; i < 6; i += 1) await (await web.fetch(`${base}/api/auth.test`, { ...post, body: '' })).text();
    expect(connections.size).toBeLessThanOrEqual(2); // undici may open a second before the first is free again
    web.close();
  });

  it('inflates a gzip answer', async () => {
    handlers.set('/api/gz', (_req, _body, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip' });
      res.end(gzipSync('{"ok":true}'));
    });
    const web = createWebFetch();
    expect(await (await web.fetch(`${base}/api/gz`, post)).json()).toEqual({ ok: true });
    web.close();
  });

  it('rejects with the signal reason when the signal aborts, as fetch does (the client timeout)', async () => {
    handlers.set('/api/slow', () => {}); // never answers
    const web = createWebFetch();
    const started = performance.now();
    const error = await web.fetch(`${base}/api/slow`, { ...post, signal: AbortSignal.timeout(50) }).catch((e) => e);
    expect((error as Error).name).toBe('TimeoutError');
    expect(performance.now() - started).toBeLessThan(2_000);
    const aborted = new AbortController();
    aborted.abort(new Error('stop'));
    await expect(web.fetch(`${base}/api/slow`, { ...post, signal: aborted.signal })).rejects.toThrow('stop');
    web.close();
  });

  it('times a call out after timeoutMs with the reason AbortSignal.timeout gives, FormData uploads too', async () => {
    handlers.set('/api/slow', () => {}); // never answers
    let uploadSignal: AbortSignal | undefined;
    const fallback: webApi.FetchFunction = async (_url, init) => {
      uploadSignal = init?.signal;
      return new Promise(() => {});
    };
    const web = createWebFetch({ timeoutMs: 50, fallback });
    const started = performance.now();
    const error = await web.fetch(`${base}/api/slow`, post).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('TimeoutError');
    expect((error as DOMException).message).toBe('The operation was aborted due to timeout');
    expect(performance.now() - started).toBeLessThan(2_000);
    void web.fetch(`${base}/api/upload`, { method: 'POST', redirect: 'error', body: new FormData() });
    expect(uploadSignal).toBeInstanceOf(AbortSignal);
    handlers.set('/api/quick', (_req, _body, res) => res.end('{"ok":true}'));
    expect(await (await web.fetch(`${base}/api/quick`, post)).json()).toEqual({ ok: true });
    web.close();
  });

  it('refuses a redirect and reports an answer cut short or a refused connection as a fetch failure', async () => {
    handlers.set('/api/moved', (_req, _body, res) => {
      res.writeHead(302, { location: '/elsewhere' });
      res.end();
    });
    handlers.set('/api/cut', (_req, _body, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('{"ok":');
      setImmediate(() => res.socket?.destroy());
    });
    const web = createWebFetch();
    await expect(web.fetch(`${base}/api/moved`, post)).rejects.toThrow('fetch failed');
    await expect(web.fetch(`${base}/api/cut`, post)).rejects.toThrow('fetch failed');
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', () => resolve()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(web.fetch(`http://127.0.0.1:${port}/api/x`, post)).rejects.toThrow('fetch failed');
    web.close();
  });

  it('leaves FormData uploads and calls without redirect: error to the fallback', async () => {
    const calls: string[] = [];
    const fallback: webApi.FetchFunction = async (url) => {
      calls.push(String(url));
      return fetch(url);
    };
    handlers.set('/api/upload', (_req, _body, res) => res.end('{"ok":true}'));
    const web = createWebFetch({ fallback });
    const form = new FormData();
    form.append('file', new Blob(['x']), 'x.txt');
    await web.fetch(`${base}/api/upload`, { method: 'POST', redirect: 'error', body: form });
    await web.fetch(`${base}/api/upload`, { method: 'POST', body: 'a=1' });
    expect(calls).toEqual([`${base}/api/upload`, `${base}/api/upload`]);
    web.close();
  });

  it('serves the WebClient: a platform error and a 429 come back as the SDK errors', async () => {
    handlers.set('/api/chat.postMessage', (_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":false,"error":"channel_not_found"}');
    });
    handlers.set('/api/users.info', (_req, _body, res) => {
      res.writeHead(429, { 'retry-after': '7' });
      res.end('{"ok":false,"error":"ratelimited"}');
    });
    const web = createWebFetch();
    const client = new webApi.WebClient('xoxb-test', {
      slackApiUrl: `${base}/api/`,
      fetch: web.fetch,
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
    });
    await expect(client.chat.postMessage({ channel: 'C1', text: 'hi' })).rejects.toBeInstanceOf(
      webApi.WebAPIPlatformError,
    );
    const limited = await client.users.info({ user: 'U1' }).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(webApi.WebAPIRateLimitedError);
    expect((limited as webApi.WebAPIRateLimitedError).retryAfter).toBe(7);
    web.close();
  });
});

// httpExchange / readBody / createHttpFetch (http-exchange.ts) against a real node:http server on
// 127.0.0.1: streamed event-stream bodies, aborts, the idle timeout, compressed answers, connection
// failures in the global fetch's shape, and keep-alive reuse.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpFetch, createKeepAliveAgents, HttpTimeoutError, httpExchange, readBody } from '../src/index.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
const routes = new Map<string, Handler>();
let server: Server;
let base = '';
const agents = createKeepAliveAgents();

beforeAll(async () => {
  server = createServer((req, res) => {
    const route = routes.get(req.url ?? '');
    if (route) route(req, res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  agents.http.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** A promise with its resolve function outside. */
function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('httpExchange', () => {
  it('sends a string body with its length and reads the answer whole', async () => {
    routes.set('/echo', (req, res) => {
      void readBody(req).then((body) =>
        res.end(JSON.stringify({ method: req.method, length: req.headers['content-length'], body: body.toString() })),
      );
    });
    const res = await httpExchange(`${base}/echo`, { method: 'POST', body: 'héllo', agents });
    expect(res.statusCode).toBe(200);
    expect(JSON.parse((await readBody(res)).toString())).toEqual({ method: 'POST', length: '6', body: 'héllo' });
  });

  it('reuses a kept-alive connection for the next request', async () => {
    routes.set('/port', (req, res) => res.end(String(req.socket.remotePort)));
    const ports: string[] = [];
    for (let i = 0; i < 3; i++) {
      ports.push((await readBody(await httpExchange(`${base}/port`, { agents }))).toString());
    }
    expect(new Set(ports).size).toBe(1);
  });

  it('fails with HttpTimeoutError when the server stays silent past idleTimeoutMs', async () => {
    const seen = deferred();
    routes.set('/silent', () => seen.resolve()); // never answers
    const pending = httpExchange(`${base}/silent`, { agents, idleTimeoutMs: 100 });
    await seen.promise;
    await expect(pending).rejects.toBeInstanceOf(HttpTimeoutError);
  });

  it('inflates a gzip answer', async () => {
    routes.set('/gzip', (_req, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('{"ok":true}')));
    expect((await readBody(await httpExchange(`${base}/gzip`, { agents }))).toString()).toBe('{"ok":true}');
  });
});

describe('createHttpFetch', () => {
  const httpFetch = createHttpFetch(agents);

  it('passes an event stream through as it arrives', async () => {
    const firstRead = deferred();
    routes.set('/sse', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      // the second event only once the client has read the first: the body is not buffered whole
      void firstRead.promise.then(() => res.end('data: two\n\n'));
    });
    const response = await httpFetch(`${base}/sse`, { method: 'POST', body: '{}' });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: one\n\n');
    firstRead.resolve();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      rest += new TextDecoder().decode(chunk.value);
    }
    expect(rest).toBe('data: two\n\n');
  });

  it('ends a stream with an AbortError when the signal fires mid-body, and closes the connection', async () => {
    const closed = deferred();
    routes.set('/endless', (req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      req.socket.once('close', () => closed.resolve());
    });
    const controller = new AbortController();
    const response = await httpFetch(`${base}/endless`, { signal: controller.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    controller.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });
    await closed.promise;
  });

  it('rejects with the AbortError of a signal that fired before the answer', async () => {
    routes.set('/never', () => {});
    const controller = new AbortController();
    const pending = httpFetch(`${base}/never`, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('reads JSON answers whole, with status, headers and an inflated body', async () => {
    routes.set('/json', (req, res) => {
      expect(req.headers.authorization).toBe('Bearer k');
      res
        .writeHead(429, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'retry-after': '2' })
        .end(gzipSync('{"error":{"message":"slow down"}}'));
    });
    const response = await httpFetch(`${base}/json`, { headers: new Headers({ authorization: 'Bearer k' }) });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('2');
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(await response.json()).toEqual({ error: { message: 'slow down' } });
  });

  it("fails like the global fetch when nothing listens: TypeError('fetch failed') with the socket error", async () => {
    const closedServer = createServer();
    await new Promise<void>((resolve) => closedServer.listen(0, '127.0.0.1', resolve));
    const { port } = closedServer.address() as AddressInfo;
    await new Promise((resolve) => closedServer.close(resolve));
    const error = await httpFetch(`http://127.0.0.1:${port}/`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).toMatchObject({ message: 'fetch failed', cause: { code: 'ECONNREFUSED' } });
  });
});

// The HTTP server's limits on the real daemon (in-process, real Fastify on 127.0.0.1): Host checked
// (421), browser Origins refused unless listed (403; CORS preflight for listed ones), the API key
// checked before the body is read, a slow body cut by the request timeout, the connection cap, and
// every error on /v1 in OpenAI's shape, the disk-full 500 included.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Daemon, startDaemon } from '../bad-input/lib/daemon.js';
import { until } from '../bad-input/lib/wait.js';
import { type FakeOpenAI, startFakeOpenAI } from '../fakes/openai-server.js';
import { readSse } from '../helpers/sse-client.js';
import { waitFor } from '../helpers/wait-for.js';
import { closed, head, openSocket, rawRequest, readResponse } from './lib/raw-http.js';

const KEY = 'sk-http-limits-key-0123456789abcdef';
const ALLOWED_ORIGIN = 'https://app.example.org';
const CHAT = '/v1/chat/completions';
const chatBody = (text: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ model: 'x', messages: [{ role: 'user', content: text }], ...extra });

let model: FakeOpenAI;

beforeAll(async () => {
  model = await startFakeOpenAI();
  model.respond(() => ({ text: 'ok' }));
});
afterAll(async () => {
  await model.close();
});

function nodeServer(daemon: Daemon): Server {
  return daemon.app.server.app.server;
}

function expectOpenAiError(body: string, code: string | null) {
  const parsed = JSON.parse(body) as { error?: { message?: unknown; type?: unknown; code?: unknown } };
  expect(typeof parsed.error?.message).toBe('string');
  expect(typeof parsed.error?.type).toBe('string');
  expect(parsed.error?.code).toBe(code);
}

describe('keyless daemon on loopback: Host, Origin, error shapes', () => {
  let daemon: Daemon;
  beforeAll(async () => {
    daemon = await startDaemon({
      modelUrl: model.url,
      env: {},
      config: { gateway: { cors_origins: [ALLOWED_ORIGIN] } },
    });
  });
  afterAll(async () => {
    await daemon.stop();
  });

  it('answers loopback Hosts; any other Host gets 421 (DNS rebinding)', async () => {
    for (const host of ['localhost', 'localhost:8642', '127.0.0.1', '127.0.0.1:1', '[::1]:8642']) {
      expect((await rawRequest(daemon.url, 'GET', '/health', { host }))?.status, host).toBe(200);
    }
    const before = model.requests.length;
    const evil = await rawRequest(
      daemon.url,
      'POST',
      CHAT,
      { host: 'evil.example.com', 'content-type': 'application/json' },
      chatBody('rebound'),
    );
    expect(evil?.status).toBe(421);
    expectOpenAiError(evil?.body ?? '', 'misdirected_request');
    expect((await rawRequest(daemon.url, 'GET', '/metrics', { host: 'evil.example.com' }))?.status).toBe(421);
    expect(model.requests.length).toBe(before);
    expect(daemon.logText()).toMatch(/answered 421/);
  });

  it('refuses a browser Origin not listed (403); a listed one gets CORS, preflight included', async () => {
    const json = { 'content-type': 'application/json' };
    const refused = await fetch(`${daemon.url}${CHAT}`, {
      method: 'POST',
      headers: { ...json, origin: 'https://evil.example' },
      body: chatBody('from a page'),
    });
    expect(refused.status).toBe(403);
    expectOpenAiError(await refused.text(), 'origin_not_allowed');

    const preflight = await fetch(`${daemon.url}${CHAT}`, {
      method: 'OPTIONS',
      headers: {
        origin: ALLOWED_ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
    const badPreflight = await fetch(`${daemon.url}${CHAT}`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example' },
    });
    expect(badPreflight.status).toBe(403);

    const allowed = await fetch(`${daemon.url}${CHAT}`, {
      method: 'POST',
      headers: { ...json, origin: ALLOWED_ORIGIN },
      body: chatBody('hi'),
    });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
  });

  it('answers errors on /v1 as OpenAI does: 404, malformed JSON, validation, 413', async () => {
    const notFound = await fetch(`${daemon.url}/v1/nope`);
    expect(notFound.status).toBe(404);
    expectOpenAiError(await notFound.text(), 'not_found');

    const post = (body: string) =>
      fetch(`${daemon.url}${CHAT}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const malformed = await post('{"messages": [');
    expect(malformed.status).toBe(400);
    expectOpenAiError(await malformed.text(), 'invalid_json');

    const invalid = await post('{"messages": []}');
    expect(invalid.status).toBe(400);
    expectOpenAiError(await invalid.text(), 'invalid_request');

    const huge = await post(chatBody('x'.repeat(5 * 1024 * 1024)));
    expect(huge.status).toBe(413);
    expectOpenAiError(await huge.text(), 'request_too_large');
    // a few MB still fit on chat completions
    expect((await post(chatBody('y'.repeat(2 * 1024 * 1024)))).status).toBe(200);
  });

  it('answers a full disk (SQLITE_FULL) with an OpenAI-shaped 500, logged', async () => {
    const db = daemon.app.rt.sqlite?.db;
    if (db === undefined) throw new Error('this test runs on SQLite');
    const pages = db.pragma('page_count', { simple: true }) as number;
    db.pragma(`max_page_count = ${pages}`);
    try {
      let res: Response | undefined;
      // fill the last free pages: a session writes until the file may not grow
      for (let i = 0; i < 50 && res?.status !== 500; i++) {
        res = await fetch(`${daemon.url}${CHAT}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-hermes-session': `disk-${i}` },
          body: chatBody('z'.repeat(20_000)),
        });
      }
      expect(res?.status).toBe(500);
      expectOpenAiError((await res?.text()) ?? '', 'disk_full');
      expect(daemon.logText()).toMatch(/SQLITE_FULL/);
    } finally {
      db.pragma('max_page_count = 4294967294');
    }
  });
});

describe('with API_SERVER_KEY: the key is checked before the body is read', () => {
  let daemon: Daemon;
  beforeAll(async () => {
    daemon = await startDaemon({
      modelUrl: model.url,
      env: { API_SERVER_KEY: KEY },
      config: { gateway: { allowed_hosts: ['hermes.internal.example'] } },
    });
  });

  it('answers gateway.allowed_hosts (with a key only: keyless, the start is refused)', async () => {
    expect((await rawRequest(daemon.url, 'GET', '/health', { host: 'hermes.internal.example' }))?.status).toBe(200);
    expect((await rawRequest(daemon.url, 'GET', '/health', { host: 'evil.example.com' }))?.status).toBe(421);
  });
  afterAll(async () => {
    await daemon.stop();
  });

  it('answers 401 to a wrong key while the promised body is still unsent, and closes the connection', async () => {
    const socket = await openSocket(daemon.url);
    const response = readResponse(socket);
    const gone = closed(socket);
    socket.write(
      head('POST', CHAT, {
        host: '127.0.0.1',
        authorization: 'Bearer wrong',
        'content-type': 'application/json',
        'content-length': 3_900_000,
      }),
    );
    socket.write('{"messages": [');
    const answer = await response;
    expect(answer?.status).toBe(401);
    expectOpenAiError(answer?.body ?? '', 'invalid_api_key');
    await gone;
  });

  it('still serves /health on loopback without the key, and /metrics and /v1 with it', async () => {
    expect((await fetch(`${daemon.url}/health`)).status).toBe(200);
    expect((await fetch(`${daemon.url}/metrics`)).status).toBe(401);
    const auth = { authorization: `Bearer ${KEY}` };
    expect((await fetch(`${daemon.url}/metrics`, { headers: auth })).status).toBe(200);
    const ok = await fetch(`${daemon.url}${CHAT}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: chatBody('hi'),
    });
    expect(ok.status).toBe(200);
  });
});

describe('timeouts and the connection cap', () => {
  it('closes a connection whose body never finishes (gateway.request_timeout_s)', async () => {
    const daemon = await startDaemon({ modelUrl: model.url, env: {}, config: { gateway: { request_timeout_s: 0.3 } } });
    try {
      const socket = await openSocket(daemon.url);
      const gone = closed(socket);
      socket.write(
        head('POST', CHAT, { host: '127.0.0.1', 'content-type': 'application/json', 'content-length': 1000 }),
      );
      socket.write('{"messages"');
      await gone; // the test's own timeout is the failure (without the limit the connection stays open)
      // the limit is on receiving the request: an answer that takes longer still arrives
      model.script({ text: 'slow answer', delayMs: 900 });
      const slow = await fetch(`${daemon.url}${CHAT}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: chatBody('take your time'),
      });
      expect(slow.status).toBe(200);
      expect(await slow.text()).toContain('slow answer');
      // the stuck connection is gone; at most the fetch's kept-alive one is open (72 s keep-alive)
      await until(
        'only the kept-alive connection open',
        () => (nodeServer(daemon) as unknown as { _connections: number })._connections <= 1,
      );
    } finally {
      await daemon.stop();
    }
  });

  it('at gateway.max_connections the oldest idle or slow connection makes room: /health answers within 1 s', async () => {
    const daemon = await startDaemon({ modelUrl: model.url, env: {}, config: { gateway: { max_connections: 3 } } });
    const held: Socket[] = [];
    try {
      const count = () => (nodeServer(daemon) as unknown as { _connections: number })._connections;
      // three slow clients: one idle, two sending their headers a byte at a time
      for (let i = 0; i < 3; i++) held.push(await openSocket(daemon.url));
      held[1]?.write('GET /health HTTP/1.1\r\nHo');
      held[2]?.write('POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      await until('3 connections accepted', () => count() === 3);
      const oldestGone = closed(held[0] as Socket);
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        expect((await rawRequest(daemon.url, 'GET', '/health', { host: '127.0.0.1' }))?.status).toBe(200);
        expect(performance.now() - started).toBeLessThan(1_000);
      }
      await oldestGone; // the oldest slow connection was closed to admit the first /health
    } finally {
      for (const s of held) s.destroy();
      await daemon.stop();
    }
  });

  it('closes a new connection only when every connection serves a received request', async () => {
    model.respond(() => ({ hang: true }));
    const daemon = await startDaemon({ modelUrl: model.url, env: {}, config: { gateway: { max_connections: 2 } } });
    const held: Socket[] = [];
    try {
      const body = chatBody('wait');
      for (let i = 0; i < 2; i++) {
        const socket = await openSocket(daemon.url);
        socket.write(
          head('POST', CHAT, {
            host: '127.0.0.1',
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          }),
        );
        socket.write(body);
        held.push(socket);
      }
      await until('two turns running', () => model.requests.filter((r) => r.rawBody.includes('wait')).length >= 2);
      const extra = await openSocket(daemon.url);
      const answer = readResponse(extra);
      extra.write(head('GET', '/health', { host: '127.0.0.1' }));
      expect(await answer).toBeNull();
    } finally {
      model.respond(() => ({ text: 'ok' }));
      for (const s of held) s.destroy();
      await daemon.stop();
    }
  });

  it('caps SSE streams per client (429 past gateway.max_streams_per_client); /health answers within 1 s meanwhile', async () => {
    const daemon = await startDaemon({
      modelUrl: model.url,
      env: {},
      config: { gateway: { max_streams: 10, max_streams_per_client: 3 } },
    });
    const streams: ReturnType<typeof readSse>[] = [];
    try {
      const session = await fetch(`${daemon.url}/chat/api/session`);
      const cookie = (session.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      for (let i = 0; i < 3; i++) {
        const stream = readSse(`${daemon.url}/chat/api/stream`, { cookie });
        streams.push(stream);
        await stream.opened;
      }
      const refused = await fetch(`${daemon.url}/chat/api/stream`, { headers: { cookie } });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(await refused.json()).toEqual({ error: 'too many open streams from this address (3 at most)' });
      const started = performance.now();
      expect((await fetch(`${daemon.url}/health`)).status).toBeLessThan(600);
      expect(performance.now() - started).toBeLessThan(1_000);
      // a stream that ends frees its place
      streams.pop()?.close();
      await waitFor(
        async () => {
          const again = await fetch(`${daemon.url}/chat/api/stream`, { headers: { cookie } });
          await again.body?.cancel();
          return again.status === 200;
        },
        { what: 'a stream place free again' },
      );
    } finally {
      for (const s of streams) s.close();
      await daemon.stop();
    }
  });
});

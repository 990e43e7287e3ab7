// bufferedExchange (@hermes/protocol): the one HTTP exchange the model client, the Discord REST
// client and the Slack Web API client make per message, through an undici dispatcher against a
// local server: the answer whole, a stop by signal or timeout rejecting with its reason, a failed
// exchange mapped as asked.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerBytes, bufferedExchange } from '@hermes/protocol';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let server: Server;
let origin = '';
const agent = new Agent();
const seen: { method?: string; url?: string; header?: string; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', header: String(req.headers['x-probe']), body });
      if (req.url === '/slow') return; // never answers
      if (req.url === '/reset') {
        req.socket.destroy();
        return;
      }
      res.writeHead(req.url === '/missing' ? 404 : 200, 'Fine', { 'content-type': 'text/plain', 'x-answer': 'yes' });
      res.write('hello, ');
      res.end(body || 'nobody');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await agent.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('bufferedExchange', () => {
  it('sends the request as given and resolves with the whole answer, any status', async () => {
    const got = await bufferedExchange(agent, {
      origin,
      path: '/echo?x=1',
      method: 'POST',
      headers: { 'x-probe': 'p1' },
      body: 'world',
    });
    expect(seen.at(-1)).toEqual({ method: 'POST', url: '/echo?x=1', header: 'p1', body: 'world' });
    expect(got.status).toBe(200);
    expect(got.statusText).toBe('Fine');
    const names = got.rawHeaders.filter((_, i) => i % 2 === 0).map((b) => b.toString().toLowerCase());
    expect(names).toContain('x-answer');
    expect(answerBytes(got).toString()).toBe('hello, world');
    const missing = await bufferedExchange(agent, { origin, path: '/missing', method: 'GET' });
    expect(missing.status).toBe(404);
  });

  it('a signal that aborts, before or during the exchange, rejects with its reason', async () => {
    const before = new AbortController();
    const reason = new Error('stopped early');
    before.abort(reason);
    await expect(
      bufferedExchange(agent, { origin, path: '/echo', method: 'GET' }, { signal: before.signal }),
    ).rejects.toBe(reason);
    const during = new AbortController();
    const pending = bufferedExchange(agent, { origin, path: '/slow', method: 'GET' }, { signal: during.signal });
    const late = new Error('stopped late');
    setImmediate(() => during.abort(late));
    await expect(pending).rejects.toBe(late);
  });

  it('the timeout rejects with its reason; a failed exchange with what `failed` makes of it', async () => {
    const timedOut = new Error('too slow');
    await expect(
      bufferedExchange(
        agent,
        { origin, path: '/slow', method: 'GET' },
        { timeoutMs: 50, timeoutReason: () => timedOut },
      ),
    ).rejects.toBe(timedOut);
    const failure = await bufferedExchange(
      agent,
      { origin, path: '/reset', method: 'GET' },
      { failed: (error) => new TypeError('fetch failed', { cause: error }) },
    ).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as TypeError).message).toBe('fetch failed');
    expect((failure as TypeError).cause).toBeInstanceOf(Error);
  });
});

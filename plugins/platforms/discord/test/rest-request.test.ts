import { Blob } from 'node:buffer';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRequest, undiciFormData } from '../rest-request.js';

describe('undiciFormData', () => {
  it("copies an upload's fields and files, names and types kept, into undici's FormData", async () => {
    const form = new globalThis.FormData();
    form.append('payload_json', '{"content":""}');
    form.append('files[0]', new Blob([Buffer.from('PNG bytes')], { type: 'image/png' }), 'chart.png');
    const copy = undiciFormData(form);
    expect(copy).not.toBeInstanceOf(globalThis.FormData);
    expect(copy.get('payload_json')).toBe('{"content":""}');
    const file = copy.get('files[0]');
    expect(file).toMatchObject({ name: 'chart.png', type: 'image/png' });
    expect(typeof file === 'object' && file !== null ? await file.text() : '').toBe('PNG bytes');
  });
});

describe('makeRequest', () => {
  let server: Server;
  let base = '';
  const seen: { method?: string; url?: string; auth?: string; body: string }[] = [];
  const read = async (req: IncomingMessage) => {
    let body = '';
    for await (const chunk of req) body += String(chunk);
    return body;
  };
  beforeAll(async () => {
    server = createServer((req, res) => {
      void read(req).then((body) => {
        seen.push({ method: req.method, url: req.url, auth: req.headers.authorization, body });
        if (req.url === '/slow') return; // never answers
        res.setHeader('content-type', 'application/json');
        res.setHeader('x-ratelimit-remaining', '4');
        res.statusCode = req.url === '/missing' ? 404 : 200;
        res.end(JSON.stringify({ id: '42', echo: body }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends method, headers and the JSON body; answers status, headers and the body once', async () => {
    const res = await makeRequest(`${base}/api/v10/channels/1/messages?x=1`, {
      method: 'POST',
      headers: { authorization: 'Bot t', 'content-type': 'application/json' },
      body: '{"content":"hi"}',
    });
    expect(seen.at(-1)).toEqual({
      method: 'POST',
      url: '/api/v10/channels/1/messages?x=1',
      auth: 'Bot t',
      body: '{"content":"hi"}',
    });
    expect([res.status, res.ok, res.statusText]).toEqual([200, true, 'OK']);
    expect(res.headers.get('X-RateLimit-Remaining')).toBe('4');
    expect(res.bodyUsed).toBe(false);
    expect(await res.json()).toEqual({ id: '42', echo: '{"content":"hi"}' });
    expect(res.bodyUsed).toBe(true);
    await expect(res.text()).rejects.toThrow(TypeError);
  });

  it('answers an error status as a response, not a throw', async () => {
    const res = await makeRequest(`${base}/missing`, { method: 'GET', headers: {} });
    expect([res.status, res.ok, res.statusText]).toEqual([404, false, 'Not Found']);
    expect(Buffer.from(await res.arrayBuffer()).toString()).toBe('{"id":"42","echo":""}');
  });

  it("rejects with the signal's reason when discord.js's timeout aborts it", async () => {
    const controller = new AbortController();
    const pending = makeRequest(`${base}/slow`, { method: 'POST', headers: {}, body: '{}', signal: controller.signal });
    await expect.poll(() => seen.some((s) => s.url === '/slow')).toBe(true);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});

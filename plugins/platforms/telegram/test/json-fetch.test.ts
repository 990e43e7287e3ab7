// grammy's fetch (json-fetch.ts): JSON calls and multipart uploads against the fake Bot API, API
// errors, aborts, compressed answers, and the adapter's client using it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { Api, GrammyError, HttpError, InputFile } from 'grammy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeTelegram, startFakeTelegram } from '../../../../test/fakes/telegram-server.js';
import { grammyFetch, jsonFetch } from '../json-fetch.js';

const TOKEN = '123456:JSON-fetch-token';
let fake: FakeTelegram;
let local: Server;
let localUrl: string;
beforeAll(async () => {
  fake = await startFakeTelegram({ token: TOKEN, longPollCapMs: 5_000 });
  // a gzip answer, and a request that is never answered (for aborts)
  local = createServer((req, res) => {
    if (req.url === '/gzip') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync(JSON.stringify({ ok: true, result: 'inflated' })));
    }
  });
  await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
  localUrl = `http://127.0.0.1:${(local.address() as AddressInfo).port}`;
});
afterAll(async () => {
  local.closeAllConnections();
  await new Promise((resolve) => local.close(resolve));
  await fake.close();
});

const api = () => new Api(TOKEN, { apiRoot: fake.apiRoot, fetch: grammyFetch });

describe('telegram jsonFetch', () => {
  it('carries grammy JSON calls and their answers', async () => {
    const me = await api().getMe();
    expect(me.id).toBe(123456);
    const sent = await api().sendMessage(42, 'hello <b>there</b>', { parse_mode: 'HTML' });
    expect(sent.chat.id).toBe(42);
    expect(fake.sent.at(-1)).toMatchObject({ chat_id: 42, text: 'hello <b>there</b>', parse_mode: 'HTML' });
  });

  it('turns an API error answer into a GrammyError with its description', async () => {
    const error = await api()
      .sendMessage(42, '<b>unclosed', { parse_mode: 'HTML' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GrammyError);
    expect((error as GrammyError).error_code).toBe(400);
    expect((error as GrammyError).description).toMatch(/parse/i);
  });

  it('streams a multipart upload (an InputFile)', async () => {
    await api()
      .sendDocument(42, new InputFile(Buffer.from('file bytes'), 'a.txt'), { caption: 'doc' })
      .catch(() => undefined);
    const call = fake.calls.find((c) => c.method === 'sendDocument');
    expect(call?.body).toMatchObject({ chat_id: 42, caption: 'doc' });
  });

  it('rejects when the signal aborts a request that is never answered', async () => {
    const controller = new AbortController();
    const pending = jsonFetch(`${localUrl}/hang`, { method: 'POST', body: '{}', signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('inflates a gzip answer', async () => {
    const res = await jsonFetch(`${localUrl}/gzip`);
    expect(res.ok).toBe(true);
    expect(await res.json()).toEqual({ ok: true, result: 'inflated' });
  });

  it('a refused connection becomes grammy HttpError, without the token in its message', async () => {
    const dead = createServer();
    await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
    const port = (dead.address() as AddressInfo).port;
    await new Promise((resolve) => dead.close(resolve));
    const error = await new Api(TOKEN, { apiRoot: `http://127.0.0.1:${port}`, fetch: grammyFetch })
      .getMe()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(String((error as HttpError).error)).toContain('ECONNREFUSED');
    expect(String((error as HttpError).error)).not.toContain(TOKEN);
  });
});

// The web chat adapter over real HTTP: the browser id cookie and CSRF token, messages into the
// sink, bot messages and edits over SSE to every open stream, the replay of what a closed browser
// missed, uploads into the media cache, and every bad request answered 4xx with nothing accepted.
import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../../../test/helpers/wait-for.js';
import { openBrowser, readSse, startWebHarness, type WebHarness } from './harness.js';

let h: WebHarness;
afterEach(async () => {
  await h?.close();
});

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

describe('web chat: identity', () => {
  it('a new browser gets an HttpOnly, SameSite=Strict, Path=/ browser id cookie; with it, the same id and no new cookie', async () => {
    h = await startWebHarness();
    const first = await fetch(`${h.url}/chat/api/session`);
    expect(first.status).toBe(200);
    const setCookie = first.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^hermes_web=[A-Za-z0-9_-]{24}; HttpOnly; SameSite=Strict; Path=\/; Max-Age=\d+$/);
    const body = (await first.json()) as { userId: string; operator: boolean; csrf: string };
    expect(body.operator).toBe(false);
    const cookie = setCookie.split(';')[0] ?? '';
    const again = await fetch(`${h.url}/chat/api/session`, { headers: { cookie } });
    expect(again.headers.get('set-cookie')).toBeNull();
    expect(await again.json()).toEqual(body);
  });

  it('a console session makes the browser that operator, with the console CSRF token', async () => {
    h = await startWebHarness({
      consoleSession: (headers) =>
        String(headers.cookie ?? '').includes('hermes_console=ok')
          ? { userId: 'console:loopback', approved: true, csrf: 'console-csrf' }
          : null,
    });
    const visitor = await openBrowser(h.url);
    const cookie = `${visitor.cookie}; hermes_console=ok`;
    const session = await fetch(`${h.url}/chat/api/session`, { headers: { cookie } });
    expect(await session.json()).toEqual({ userId: 'console:loopback', operator: true, csrf: 'console-csrf' });
    const refused = await fetch(`${h.url}/chat/api/messages`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', 'x-hermes-csrf': visitor.csrf },
      body: JSON.stringify({ text: 'hi' }),
    });
    expect(refused.status).toBe(403);
    const ok = await fetch(`${h.url}/chat/api/messages`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', 'x-hermes-csrf': 'console-csrf' },
      body: JSON.stringify({ text: 'hi' }),
    });
    expect(ok.status).toBe(202);
    expect(h.recorder.events[0]?.source).toMatchObject({ userId: 'console:loopback', chatId: visitor.userId });
  });
});

describe('web chat: messages and streams', () => {
  it('a message reaches the sink as a DM of the browser; sends and edits reach every open stream in order', async () => {
    h = await startWebHarness();
    const browser = await openBrowser(h.url);
    const res = await browser.post({ text: 'hello there' });
    expect(res.status).toBe(202);
    const event = h.recorder.events[0];
    expect(event).toMatchObject({ kind: 'text', platform: 'web', text: 'hello there', internal: false });
    expect(event?.source).toMatchObject({
      platform: 'web',
      chatType: 'dm',
      chatId: browser.userId,
      userId: browser.userId,
    });
    const a = readSse(`${h.url}/chat/api/stream`, { cookie: browser.cookie });
    const b = readSse(`${h.url}/chat/api/stream`, { cookie: browser.cookie });
    await Promise.all([a.opened, b.opened]);
    await waitFor(() => h.streams.openStreams(browser.userId) === 2);
    const sent = await h.adapter.send({ chatId: browser.userId, text: 'Hel', formatted: true });
    if (!sent.ok) throw new Error('send failed');
    const id = sent.messageIds[0] as string;
    await h.adapter.edit?.({ chatId: browser.userId, messageId: id, text: 'Hello!', formatted: true });
    for (const stream of [a, b]) {
      const events = await stream.next(2);
      expect(events.map((e) => [e.event, JSON.parse(e.data)])).toEqual([
        ['message', { id, text: 'Hel' }],
        ['edit', { id, text: 'Hello!' }],
      ]);
      stream.close();
    }
  });

  it('what was sent while no stream was open is replayed on the next open; Last-Event-ID replays only what came after it', async () => {
    h = await startWebHarness();
    const browser = await openBrowser(h.url);
    const chatId = browser.userId;
    await h.adapter.send({ chatId, text: 'one', formatted: true });
    await h.adapter.send({ chatId, text: 'two', formatted: true });
    const first = readSse(`${h.url}/chat/api/stream`, { cookie: browser.cookie });
    const got = await first.next(2);
    expect(got.map((e) => JSON.parse(e.data).text)).toEqual(['one', 'two']);
    first.close();
    await waitFor(() => h.streams.openStreams(chatId) === 0);
    await h.adapter.send({ chatId, text: 'three', formatted: true }); // the browser is reloading
    // a reload: the page's EventSource resumes from the last id it saw
    const resumed = readSse(`${h.url}/chat/api/stream`, { cookie: browser.cookie, 'last-event-id': got[0]?.id ?? '' });
    expect((await resumed.next(2)).map((e) => JSON.parse(e.data).text)).toEqual(['two', 'three']);
    resumed.close();
    // without an id, what any stream has seen is not sent again
    const fresh = readSse(`${h.url}/chat/api/stream`, { cookie: browser.cookie });
    await fresh.opened;
    await h.adapter.send({ chatId, text: 'four', formatted: true });
    expect((await fresh.next(1)).map((e) => JSON.parse(e.data).text)).toEqual(['four']);
    fresh.close();
  });

  it('stop() ends the open streams; the routes then answer 503', async () => {
    h = await startWebHarness();
    const browser = await openBrowser(h.url);
    const stream = readSse(`${h.url}/chat/api/stream`, { cookie: browser.cookie });
    await stream.opened;
    await h.adapter.stop();
    await waitFor(() => stream.ended());
    expect((await browser.post({ text: 'late' })).status).toBe(503);
    expect(h.recorder.events).toHaveLength(0);
  });

  it('an uploaded image is saved in the media cache and listed as a photo attachment', async () => {
    h = await startWebHarness({ mediaMaxBytes: 1024 * 1024 });
    const browser = await openBrowser(h.url);
    const form = new FormData();
    form.set('text', 'what is this?');
    form.set('file', new Blob([PNG], { type: 'image/png' }), '../../evil name.png');
    const res = await browser.postForm(form);
    expect(res.status).toBe(202);
    const event = h.recorder.events[0];
    expect(event?.kind).toBe('media');
    const file = event?.attachments?.[0];
    expect(file).toMatchObject({ kind: 'photo', mimeType: 'image/png', fileName: 'evil_name.png', size: PNG.length });
    expect(file?.path?.startsWith(`${h.cacheDir}/web-`)).toBe(true);
    expect(readFileSync(file?.path ?? '')).toEqual(PNG);
  });
});

describe('web chat: bad requests get a clear 4xx and nothing is accepted', () => {
  it('answers each bad request and keeps serving', async () => {
    h = await startWebHarness({ mediaMaxBytes: 1000 });
    const browser = await openBrowser(h.url);
    const json = { cookie: browser.cookie, 'content-type': 'application/json' };
    const cases: [string, Promise<Response>, number, RegExp][] = [
      ['no text', browser.post({ text: '   ' }), 400, /no text and no file/],
      ['text not a string', browser.post({ text: 42 }), 400, /text.{0,2} must be a string/],
      ['too long text', browser.post({ text: 'x'.repeat(40_000) }), 413, /at most 32000/],
      [
        'invalid JSON',
        fetch(`${h.url}/chat/api/messages`, {
          method: 'POST',
          headers: { ...json, 'x-hermes-csrf': browser.csrf },
          body: '{',
        }),
        400,
        /JSON/,
      ],
      [
        'plain text body',
        fetch(`${h.url}/chat/api/messages`, {
          method: 'POST',
          headers: { cookie: browser.cookie, 'x-hermes-csrf': browser.csrf, 'content-type': 'text/plain' },
          body: 'hi',
        }),
        415,
        /./,
      ],
      ['wrong CSRF', browser.post({ text: 'hi' }, { 'x-hermes-csrf': 'forged' }), 403, /csrf/],
      [
        'no CSRF header (a cross-site form)',
        fetch(`${h.url}/chat/api/messages`, { method: 'POST', headers: json, body: JSON.stringify({ text: 'hi' }) }),
        403,
        /csrf/,
      ],
      ['a foreign Origin', browser.post({ text: 'hi' }, { origin: 'https://evil.example' }), 403, /csrf/],
      [
        'no browser cookie',
        fetch(`${h.url}/chat/api/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-hermes-csrf': browser.csrf },
          body: JSON.stringify({ text: 'hi' }),
        }),
        403,
        /csrf/,
      ],
      ['a Host it does not serve', getWithHost(`${h.url}/chat/api/session`, 'evil.example'), 421, /Host/],
    ];
    for (const [name, pending, status, error] of cases) {
      const res = await pending;
      expect({ name, status: res.status }).toEqual({ name, status });
      expect(await res.text()).toMatch(error);
    }
    const big = new FormData();
    big.set('file', new Blob([Buffer.alloc(2000, 1)], { type: 'image/png' }), 'big.png');
    const tooBig = await browser.postForm(big);
    expect(tooBig.status).toBe(413);
    expect(await tooBig.text()).toMatch(/big\.png.*2000 bytes.*media\.max_bytes allows 1000/);
    const huge = new FormData();
    huge.set('file', new Blob([Buffer.alloc(600 * 1024, 1)]), 'huge.bin');
    expect((await browser.postForm(huge)).status).toBe(413); // over the route's body limit: unread
    const empty = new FormData();
    empty.set('file', new Blob([]), 'empty.txt');
    expect(await (await browser.postForm(empty)).text()).toMatch(/empty\.txt.*empty/);
    expect(h.recorder.attempts).toHaveLength(0);
    expect((await browser.post({ text: 'still here' })).status).toBe(202);
    expect(h.recorder.events.map((e) => e.text)).toEqual(['still here']);
  });
});

/** A GET with a Host header of our choice (fetch refuses to set one). */
function getWithHost(url: string, host: string): Promise<Response> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(new Response(Buffer.concat(chunks), { status: res.statusCode ?? 0 })));
    }).on('error', reject);
  });
}

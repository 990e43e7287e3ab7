// The `browser` tool against a local page in headless Chromium (Debian's /usr/bin/chromium; skipped,
// saying why, where it cannot be had): navigate, read, fill, click, the text changed, a screenshot
// shown to the model as a PNG; a loopback URL refused by default (and allowed only by
// security.allow_private_urls); a redirect and a subresource to loopback from a "public" page
// refused by the proxy and the routing; file:// only inside the file roots; one page per session;
// the idle close.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BrowserPool, createBrowser, type Resolver } from '@hermes/agent';
import { silentLogger, type ToolContext, type ToolDefinition, type ToolImage } from '@hermes/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait-for.js';
import { ensureChromium } from './chromium.js';

const chromium = ensureChromium();
const skip = 'skip' in chromium ? chromium.skip : null;
if (skip) console.warn(`browser tool tests skipped: ${skip}`);

/** A pretend-public address: the fake resolver gives it to public.example, the proxy dials 127.0.0.1 for it. */
const PUBLIC = '93.184.216.34';

const FORM = `<!doctype html><html><head><title>Greeter</title></head><body>
<h1>Form page</h1>
<label for="name">Your name</label> <input id="name" name="name">
<button id="go" type="button">Greet</button>
<p id="out">waiting</p>
<script>
document.getElementById('go').addEventListener('click', () => {
  document.getElementById('out').textContent = 'Hello, ' + document.getElementById('name').value + '!';
});
</script></body></html>`;

let server: Server;
let base = '';
const hits: string[] = [];
let dir = '';
const tools: { pool: BrowserPool }[] = [];
/** one browser that may reach loopback (the test server), one with the defaults: shared by the tests */
let open: ReturnType<typeof browser>;
let guarded: ReturnType<typeof browser>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hermes-browser-'));
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.push(path);
    const port = (server.address() as AddressInfo).port;
    if (path === '/form') res.writeHead(200, { 'content-type': 'text/html' }).end(FORM);
    else if (path === '/to-loopback') res.writeHead(302, { location: `http://127.0.0.1:${port}/secret` }).end();
    else if (path === '/public-page')
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<p>a public page</p><img src="http://127.0.0.1:${port}/pixel.png">`);
    else res.writeHead(200, { 'content-type': 'text/plain' }).end(`at ${path}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  if (skip === null) {
    open = browser(true);
    guarded = browser(false);
  }
});

afterAll(async () => {
  await Promise.all(tools.map((t) => t.pool.close()));
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

const fakeResolver: Resolver = async (host) =>
  host === 'public.example' ? [{ address: PUBLIC, family: 4 }] : [{ address: '127.0.0.1', family: 4 }];

function browser(allowPrivateUrls: boolean, idleS = 300) {
  if ('skip' in chromium) throw new Error(chromium.skip);
  const made = createBrowser({
    config: { executable: chromium.path, idle_timeout_s: idleS, timeout_s: 15 },
    allowPrivateUrls,
    maxTextChars: 20_000,
    screenshotDir: (owner) => join(dir, 'shots', owner ?? 'none'),
    cwd: dir,
    fileRoots: [join(dir, 'root')],
    hermesHomes: [],
    resolve: fakeResolver,
    dial: (address) => (address === PUBLIC ? '127.0.0.1' : address),
    logger: silentLogger,
  });
  tools.push(made);
  return made;
}

type Result = Record<string, unknown> & { success: boolean };

function caller(tool: ToolDefinition, sessionId = 's1') {
  const images: ToolImage[] = [];
  const context: ToolContext = {
    sessionId,
    taskId: '',
    toolCallId: 'call_1',
    platform: 'cli',
    cwd: dir,
    signal: new AbortController().signal,
    logger: silentLogger,
    hooks: { invoke: async () => undefined } as unknown as ToolContext['hooks'],
    requestApproval: async () => 'deny',
    attachImage: (image) => {
      images.push(image);
      return true;
    },
  };
  const call = async (args: Record<string, unknown>) => (await tool.handler(args, context)) as Result;
  return { call, images };
}

describe.skipIf(skip !== null)('the browser tool in headless Chromium', () => {
  it('navigate, read, fill, click (the text changes), screenshot shown as a PNG image', async () => {
    const { call, images } = caller(open.tool, 'form');
    const opened = await call({ action: 'navigate', url: `${base}/form` });
    expect(opened).toMatchObject({ success: true, url: `${base}/form`, title: 'Greeter', status: 200 });
    const before = await call({ action: 'read' });
    expect(before.text).toContain('Form page');
    expect(before.text).toContain('waiting');
    expect(before.controls).toEqual(
      expect.arrayContaining([
        { kind: 'field', selector: '#name', text: 'Your name' },
        { kind: 'button', selector: '#go', text: 'Greet' },
      ]),
    );
    expect(await call({ action: 'fill', selector: '#name', value: 'Ada' })).toMatchObject({ success: true });
    expect(await call({ action: 'click', text: 'Greet' })).toMatchObject({ success: true });
    const after = await call({ action: 'read' });
    expect(after.text).toContain('Hello, Ada!');
    expect(after.text).not.toContain('waiting');

    const shot = await call({ action: 'screenshot' });
    expect(shot).toMatchObject({ success: true, shown: true, url: `${base}/form` });
    expect(images).toEqual([{ path: shot.path, mimeType: 'image/png' }]);
    const png = readFileSync(String(shot.path));
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.length).toBe(shot.bytes);
  });

  it('by default a loopback URL is refused before Chromium starts, and the server never sees it', async () => {
    const { call } = caller(guarded.tool, 'refused');
    const seen = hits.length;
    const refused = await call({ action: 'navigate', url: `${base}/form` });
    expect(refused).toMatchObject({ success: false, code: 'HERMES_WEB_URL_REFUSED' });
    expect(refused.error).toContain('127.0.0.1 is a loopback address');
    expect(refused.error).toContain('security.allow_private_urls');
    expect(guarded.pool.launched).toBe(false);
    expect(hits.slice(seen)).toEqual([]);
  });

  it('a public page cannot reach loopback: its image request and a redirect there are refused', async () => {
    const { call } = caller(guarded.tool, 'public');
    const url = `http://public.example:${new URL(base).port}`;
    const seen = hits.length;
    const page = await call({ action: 'navigate', url: `${url}/public-page` });
    expect(page).toMatchObject({ success: true, url: `${url}/public-page` });
    expect(String((page.blocked as string[] | undefined)?.[0])).toContain('127.0.0.1 is a loopback address');
    const redirected = await call({ action: 'navigate', url: `${url}/to-loopback` });
    expect(redirected.success).toBe(false);
    expect(redirected.error).toContain('loopback');
    // the proxy dialled 127.0.0.1 for the pretend-public address only
    expect(hits.slice(seen)).toEqual(['/public-page', '/to-loopback']);
  });

  it('file:// only inside the file roots; a page there cannot pull in a file outside them', async () => {
    const { call } = caller(open.tool, 'files');
    const root = join(dir, 'root');
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, 'page.html'), '<p>a local page</p><iframe src="file:///etc/hostname"></iframe>');
    const local = await call({ action: 'navigate', url: pathToFileURL(join(root, 'page.html')).href });
    expect(local).toMatchObject({ success: true });
    expect(String((local.blocked as string[] | undefined)?.[0])).toContain('outside the allowed folders');
    expect((await call({ action: 'read' })).text).toContain('a local page');
    const outside = await call({ action: 'navigate', url: 'file:///etc/hostname' });
    expect(outside).toMatchObject({ success: false, code: 'HERMES_WEB_URL_REFUSED' });
    expect(outside.error).toContain('outside the allowed folders');
    const scheme = await call({ action: 'navigate', url: 'javascript:alert(1)' });
    expect(scheme).toMatchObject({ success: false, code: 'HERMES_WEB_URL_REFUSED' });
  });

  it('one page per session: another session does not see the first one’s page; close ends a session', async () => {
    const { tool, pool } = open;
    const first = caller(tool, 'session-a');
    const second = caller(tool, 'session-b');
    const sessions = pool.sessions;
    await first.call({ action: 'navigate', url: `${base}/form` });
    await first.call({ action: 'fill', selector: '#name', value: 'Grace' });
    const other = await second.call({ action: 'read' });
    expect(other).toMatchObject({ success: true, url: 'about:blank', text: '' });
    expect(pool.sessions).toBe(sessions + 2);
    expect(await second.call({ action: 'close' })).toEqual({ success: true, closed: true });
    expect(pool.sessions).toBe(sessions + 1);
    // the first session's page kept what was typed into it
    await first.call({ action: 'click', selector: '#go' });
    expect((await first.call({ action: 'read' })).text).toContain('Hello, Grace!');
  });

  it('an idle session page is closed, and with none left the browser too', async () => {
    const { tool, pool } = browser(true, 0.3);
    const { call } = caller(tool);
    expect(await call({ action: 'navigate', url: `${base}/form` })).toMatchObject({ success: true });
    expect(pool.launched).toBe(true);
    await waitFor(() => pool.sessions === 0 && !pool.launched, { what: 'the idle page and browser closed' });
    // the next use launches it again
    expect(await call({ action: 'read' })).toMatchObject({ success: true, url: 'about:blank' });
  });
});

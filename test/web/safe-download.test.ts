// The guarded file download behind MEDIA URLs: bytes and type come back; a body over the cap and a
// non-200 answer are refused (never cut); a private address is refused after DNS. And a MEDIA URL
// is saved under the download folder with its own name, then sent from there.

import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSafeDownload, type Resolver } from '@hermes/agent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveMedia } from '../../packages/gateway/src/delivery/media/media-source.js';
import { FAKE_PNG } from '../fakes/openai-server.js';

const PUBLIC_IP = '93.184.216.34';
const dns: Resolver = async (host) => [{ address: host === 'public.test' ? PUBLIC_IP : '10.0.0.9', family: 4 }];
let server: Server;
let port = 0;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/dot.png') res.writeHead(200, { 'content-type': 'image/png' }).end(FAKE_PNG);
    else if (req.url === '/big')
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.alloc(5000));
    else res.writeHead(404).end('no');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const download = () =>
  createSafeDownload({
    allowPrivate: false,
    timeoutMs: 5_000,
    maxBytes: 1_000,
    resolve: dns,
    dial: (address) => (address === PUBLIC_IP ? '127.0.0.1' : address),
  });

describe('createSafeDownload', () => {
  it('returns the bytes and the media type', async () => {
    const file = await download()(`http://public.test:${port}/dot.png`);
    expect(file.contentType).toBe('image/png');
    expect(Buffer.from(file.bytes).equals(FAKE_PNG)).toBe(true);
  });

  it('refuses a body over the cap, a 404 and a private address', async () => {
    await expect(download()(`http://public.test:${port}/big`)).rejects.toThrow(/over the limit of 1000/);
    await expect(download()(`http://public.test:${port}/missing`)).rejects.toThrow(/HTTP 404/);
    await expect(download()(`http://intranet.test:${port}/dot.png`)).rejects.toThrow(/10\.0\.0\.9/);
  });
});

describe('a MEDIA URL', () => {
  it('is saved under the download folder with its own name and sent from there', async () => {
    const home = mkdtempSync(join(tmpdir(), 'hermes-media-url-'));
    const downloadDir = join(home, 'cache', 'media', 'outbound');
    const stub = async (url: string) => ({ url, contentType: 'image/png', bytes: FAKE_PNG });
    const result = await resolveMedia('https://cdn.example/pics/dot.png?sig=1', {
      hermesHomes: [home],
      downloadDir,
      maxBytes: 1_000,
      download: stub,
    });
    expect(result).toMatchObject({ ok: true, fileName: 'dot.png', kind: 'image', mimeType: 'image/png' });
    if (!result.ok) return;
    expect(result.path.startsWith(downloadDir)).toBe(true);
    expect(readFileSync(result.path).equals(FAKE_PNG)).toBe(true);
  });

  it('a failed download is a note naming the URL and the reason', async () => {
    const home = mkdtempSync(join(tmpdir(), 'hermes-media-url-'));
    const result = await resolveMedia('https://cdn.example/x.png', {
      hermesHomes: [home],
      downloadDir: join(home, 'cache'),
      maxBytes: 1_000,
      download: async () => {
        throw new Error('https://cdn.example/x.png answered HTTP 403');
      },
    });
    expect(result).toEqual({
      ok: false,
      note: '⚠️ Not sent: https://cdn.example/x.png: https://cdn.example/x.png answered HTTP 403',
    });
  });
});

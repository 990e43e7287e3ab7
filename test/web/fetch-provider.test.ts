// The key-free `fetch` provider over the host's guarded fetch and the fake site (reached as public.test).
import { createSafeFetch, type Resolver } from '@hermes/agent';
import type { WebExtractOptions } from '@hermes/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchProvider } from '../../plugins/web/fetch/provider.js';
import { type FakeSite, startFakeSite } from '../fakes/web/site-server.js';

const PUBLIC_IP = '93.184.216.34';
const resolve: Resolver = async (host) => {
  if (host === 'public.test' || host === 'www.public.test') return [{ address: PUBLIC_IP, family: 4 }];
  throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
};

let site: FakeSite;
let origin = '';
beforeAll(async () => {
  site = await startFakeSite();
  origin = `http://public.test:${site.port}`;
});
afterAll(() => site.close());

function options(extra: Partial<WebExtractOptions> = {}): WebExtractOptions {
  return {
    format: 'markdown',
    signal: new AbortController().signal,
    fetchPage: createSafeFetch({
      allowPrivate: false,
      timeoutMs: 2_000,
      maxBytes: 200_000,
      resolve,
      dial: (a) => (a === PUBLIC_IP ? '127.0.0.1' : a),
    }),
    ...extra,
  };
}

describe('FetchProvider', () => {
  const provider = new FetchProvider();

  it('is a key-free fallback for extract and crawl, not search', () => {
    expect(provider.isAvailable()).toBe(true);
    expect(provider.fallback).toBe(true);
    expect([provider.supportsSearch(), provider.supportsExtract(), provider.supportsCrawl()]).toEqual([
      false,
      true,
      true,
    ]);
  });

  it('extracts clean Markdown with metadata, and per-URL errors for the rest', async () => {
    const out = await provider.extract(
      [`${origin}/article`, `${origin}/missing`, `${origin}/files/report.pdf`, `${origin}/text`, 'http://127.0.0.1/x'],
      options(),
    );
    expect(out.success).toBe(true);
    if (!out.success) return;
    const [article, missing, pdf, text, loopback] = out.data;
    expect(article).toMatchObject({
      url: `${origin}/article`,
      title: 'Solar power in 2025 | Fake Site',
      metadata: {
        status: 200,
        content_type: 'text/html',
        description: 'How solar overtook coal.',
        lang: 'en',
        canonical: `${origin}/article`,
      },
    });
    expect(article?.content).toBe(
      [
        '# Solar power in 2025',
        `By [Ann](${origin}/authors/ann)`,
        'Solar panels produced **more power** than coal for the first time.',
        '## Why it matters',
        '- Cheaper energy\n- Cleaner air',
        `Read the [technical notes](${origin}/docs/a) or the [press release](https://other.example/elsewhere).`,
        `[Full report (PDF)](${origin}/files/report.pdf)`,
      ].join('\n\n'),
    );
    expect(article?.raw_content).toContain('<!DOCTYPE html>');
    expect(missing).toMatchObject({ error: 'HTTP 404', metadata: { status: 404 } });
    expect(pdf?.error).toMatch(/cannot read application\/pdf/);
    expect(text).toMatchObject({ content: 'Just plain text.\nSecond line.', title: '' });
    expect(loopback?.error).toMatch(/refused: 127\.0\.0\.1 is a loopback address/);
  });

  it('gives plain text on request and follows redirects, reporting the final URL', async () => {
    const out = await provider.extract([`${origin}/redirect?to=/docs/a`], options({ format: 'text' }));
    expect(out.success && out.data[0]).toMatchObject({
      content: 'Docs A\n\nAlpha notes. See Docs B.',
      metadata: { final_url: `${origin}/docs/a` },
    });
  });

  it('crawls same-site links breadth first within depth and limit', async () => {
    site.hits.length = 0;
    const out = await provider.crawl(`${origin}/docs/a`, { ...options(), limit: 10, depth: 1 });
    expect(out.success && out.data.map((p) => new URL(p.url).pathname)).toEqual(['/docs/a', '/', '/about', '/docs/b']);
    const deeper = await provider.crawl(`${origin}/docs/a`, { ...options(), limit: 3, depth: 2 });
    expect(deeper.success && deeper.data).toHaveLength(3);
    expect(site.hits).not.toContain('/elsewhere');
  });

  it('puts links matching the instructions first', async () => {
    const out = await provider.crawl(`${origin}/article`, {
      ...options(),
      limit: 2,
      depth: 1,
      instructions: 'technical documentation about docs',
    });
    expect(out.success && out.data.map((p) => new URL(p.url).pathname)).toEqual(['/article', '/docs/a']);
  });

  it('a crawl whose start page fails is a failure', async () => {
    const out = await provider.crawl(`${origin}/missing`, { ...options(), limit: 5, depth: 1 });
    expect(out).toEqual({ success: false, error: `${origin}/missing: HTTP 404` });
  });
});

// Each bundled provider against a fake of its service's real HTTP API on 127.0.0.1, plus loading them all
// through the real plugin loader (manifests, requires_env, registration).
import { fileURLToPath } from 'node:url';
import { ToolRegistry } from '@hermes/agent';
import { HookBus, loadPlugins, PluginRegistries } from '@hermes/plugins';
import { silentLogger, type WebCrawlOptions, type WebExtractOptions } from '@hermes/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BraveSearchProvider } from '../../plugins/web/brave-free/provider.js';
import { ExaProvider } from '../../plugins/web/exa/provider.js';
import { FirecrawlProvider } from '../../plugins/web/firecrawl/provider.js';
import { SearxngProvider } from '../../plugins/web/searxng/provider.js';
import { TavilyProvider } from '../../plugins/web/tavily/provider.js';
import { startFakeBrave } from '../fakes/web/brave-server.js';
import { startFakeExa } from '../fakes/web/exa-server.js';
import { type FakeFirecrawl, startFakeFirecrawl } from '../fakes/web/firecrawl-server.js';
import type { HttpFake } from '../fakes/web/http-fake.js';
import { startFakeSearxng } from '../fakes/web/searxng-server.js';
import { startFakeTavily } from '../fakes/web/tavily-server.js';

const KEY = 'test-key-0123456789';
const signal = () => new AbortController().signal;
const noFetch = async () => {
  throw new Error('a remote provider must not fetch pages itself');
};
const extractOptions = (): WebExtractOptions => ({ format: 'markdown', signal: signal(), fetchPage: noFetch });
const crawlOptions = (limit = 10): WebCrawlOptions => ({ ...extractOptions(), limit, depth: 1 });

const fakes: HttpFake[] = [];
afterAll(() => Promise.all(fakes.map((f) => f.close())));
async function track<T extends HttpFake>(fake: Promise<T>): Promise<T> {
  const f = await fake;
  fakes.push(f);
  return f;
}

describe('searxng', () => {
  let fake: HttpFake;
  beforeAll(async () => {
    fake = await track(startFakeSearxng({ prefix: '/searx' }));
  });

  it('GET /search?format=json under the instance URL, cut to the limit', async () => {
    const p = new SearxngProvider({ SEARXNG_URL: `${fake.url}/searx/` });
    expect(p.isAvailable()).toBe(true);
    const out = await p.search('paris weather', 1, { signal: signal() });
    expect(out).toEqual({
      success: true,
      data: {
        web: [
          {
            title: 'Paris weather today',
            url: 'https://weather.example/paris',
            description: 'Sunny in Paris, 24 °C, light wind from the west.',
            position: 1,
          },
        ],
      },
    });
    const req = fake.requests.at(-1);
    expect([req?.path, req?.query.get('q'), req?.query.get('format')]).toEqual([
      '/searx/search',
      'paris weather',
      'json',
    ]);
  });

  it('explains the 403 of an instance without the JSON format; unavailable without SEARXNG_URL', async () => {
    const off = await track(startFakeSearxng({ json: false }));
    const out = await new SearxngProvider({ SEARXNG_URL: off.url }).search('x', 5, { signal: signal() });
    expect(out).toEqual({
      success: false,
      error:
        'SearXNG answered HTTP 403: 403 Forbidden. The instance must allow JSON: add json to search.formats in its settings.yml',
    });
    expect(new SearxngProvider({}).isAvailable()).toBe(false);
  });
});

describe('brave-free', () => {
  let fake: HttpFake;
  beforeAll(async () => {
    fake = await track(startFakeBrave({ key: KEY }));
  });

  it("sends X-Subscription-Token and count, and strips Brave's <strong> marks", async () => {
    const p = new BraveSearchProvider({ BRAVE_SEARCH_API_KEY: KEY, BRAVE_SEARCH_BASE_URL: fake.url });
    const out = await p.search('hermes plugins', 2, { signal: signal() });
    expect(out.success && out.data.web).toEqual([
      {
        title: 'Writing Hermes plugins',
        url: 'https://hermes.example/docs/plugins',
        description: 'A plugin is a folder with plugin.yaml and index.ts exporting register(ctx).',
        position: 1,
      },
      {
        title: 'Installing Hermes',
        url: 'https://hermes.example/docs/install',
        description: 'Install Hermes with npm and run hermes -z to ask one question.',
        position: 2,
      },
    ]);
    const req = fake.requests.at(-1);
    expect([req?.path, req?.query.get('count'), req?.headers['x-subscription-token']]).toEqual([
      '/res/v1/web/search',
      '2',
      KEY,
    ]);
  });

  it("a wrong key is a failure envelope with Brave's own message", async () => {
    const p = new BraveSearchProvider({ BRAVE_SEARCH_API_KEY: 'wrong', BRAVE_SEARCH_BASE_URL: fake.url });
    expect(await p.search('x', 5, { signal: signal() })).toEqual({
      success: false,
      error: 'Brave Search answered HTTP 401: The provided subscription token is invalid.',
    });
  });
});

describe('tavily', () => {
  let fake: HttpFake;
  let p: TavilyProvider;
  beforeAll(async () => {
    fake = await track(startFakeTavily({ key: KEY }));
    p = new TavilyProvider({ TAVILY_API_KEY: KEY, TAVILY_BASE_URL: fake.url });
  });

  it('search: POST /search with Bearer auth and max_results', async () => {
    const out = await p.search('ai news', 3, { signal: signal() });
    expect(out.success && out.data.web[0]).toEqual({
      title: 'AI news roundup',
      url: 'https://news.example/ai',
      description: 'This week in AI: new open models and agent frameworks.',
      position: 1,
    });
    expect(fake.requests.at(-1)?.body).toMatchObject({ query: 'ai news', max_results: 3 });
    expect(fake.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('extract: results and failed_results; crawl: the pages of the site', async () => {
    const out = await p.extract(['https://weather.example/paris', 'https://gone.example/'], extractOptions());
    expect(out).toEqual({
      success: true,
      data: [
        {
          url: 'https://weather.example/paris',
          title: 'Paris weather',
          content: '# Paris weather\n\nSunny, 24 °C.',
          raw_content: '# Paris weather\n\nSunny, 24 °C.',
        },
        { url: 'https://gone.example/', title: '', content: '', raw_content: '', error: 'Failed to fetch url' },
      ],
    });
    const crawl = await p.crawl('https://hermes.example/docs', { ...crawlOptions(5), instructions: 'plugin docs' });
    expect(crawl.success && crawl.data.map((d) => d.url)).toEqual([
      'https://hermes.example/docs/install',
      'https://hermes.example/docs/plugins',
    ]);
    expect(fake.requests.at(-1)?.body).toMatchObject({
      url: 'https://hermes.example/docs',
      limit: 5,
      max_depth: 1,
      instructions: 'plugin docs',
      format: 'markdown',
    });
  });

  it("a wrong key fails the call with Tavily's message", async () => {
    const bad = new TavilyProvider({ TAVILY_API_KEY: 'nope', TAVILY_BASE_URL: fake.url });
    expect(await bad.search('x', 1, { signal: signal() })).toEqual({
      success: false,
      error: 'Tavily answered HTTP 401: Unauthorized: missing or invalid API key.',
    });
  });
});

describe('firecrawl', () => {
  let fake: FakeFirecrawl;
  let p: FirecrawlProvider;
  beforeAll(async () => {
    fake = await track(startFakeFirecrawl({ key: KEY, pollsBeforeDone: 1 }));
    p = new FirecrawlProvider({ env: { FIRECRAWL_API_KEY: KEY, FIRECRAWL_API_URL: fake.url }, pollDelaysMs: [1] });
  });

  it('search: POST /v2/search, data.web as is', async () => {
    const out = await p.search('install hermes', 1, { signal: signal() });
    expect(out.success && out.data.web).toEqual([
      {
        url: 'https://hermes.example/docs/install',
        title: 'Installing Hermes',
        description: 'Install Hermes with npm and run hermes -z to ask one question.',
        position: 1,
      },
    ]);
    expect(fake.requests.at(-1)?.body).toEqual({ query: 'install hermes', limit: 1 });
  });

  it("extract: one /v2/scrape per URL; a 404 target is that page's error; text format strips Markdown", async () => {
    const out = await p.extract(['https://hermes.example/docs/install', 'https://gone.example/'], {
      ...extractOptions(),
      format: 'text',
    });
    expect(out.success && out.data).toEqual([
      {
        url: 'https://hermes.example/docs/install',
        title: 'Installing Hermes',
        content: 'Installing Hermes\n\nInstall with npm install -g hermes, then run hermes -z "hello".',
        raw_content: '# Installing Hermes\n\nInstall with `npm install -g hermes`, then run `hermes -z "hello"`.',
        metadata: {
          status: 200,
          description: 'Install Hermes with npm and run hermes -z to ask one question.',
          language: 'en',
        },
      },
      {
        url: 'https://gone.example/',
        title: '',
        content: '',
        raw_content: '',
        metadata: { status: 404 },
        error: 'HTTP 404: Not Found',
      },
    ]);
    const bad = new FirecrawlProvider({ env: { FIRECRAWL_API_KEY: 'nope', FIRECRAWL_BASE_URL: fake.url } });
    expect(await bad.extract(['https://a.example'], extractOptions())).toEqual({
      success: false,
      error: 'Firecrawl answered HTTP 401: Unauthorized: Invalid token',
    });
  });

  it('crawl: POST /v2/crawl, polls GET /v2/crawl/{id} until completed', async () => {
    fake.reset();
    const out = await p.crawl('https://hermes.example/', { ...crawlOptions(10), depth: 2, instructions: 'only docs' });
    expect(out.success && out.data.map((d) => d.title)).toEqual(['Installing Hermes', 'Writing Hermes plugins']);
    expect(fake.requests.map((r) => `${r.method} ${r.path.replace(/[\w-]{36}$/, '{id}')}`)).toEqual([
      'POST /v2/crawl',
      'GET /v2/crawl/{id}',
      'GET /v2/crawl/{id}',
    ]);
    expect(fake.requests[0]?.body).toMatchObject({
      url: 'https://hermes.example/',
      limit: 10,
      maxDiscoveryDepth: 2,
      prompt: 'only docs',
    });
  });

  it('a crawl abandoned by a timeout is cancelled with DELETE', async () => {
    const slow = new FirecrawlProvider({
      env: { FIRECRAWL_API_KEY: KEY, FIRECRAWL_BASE_URL: fake.url },
      pollDelaysMs: [1_000],
    });
    const out = await slow.crawl('https://hermes.example/', { ...crawlOptions(), signal: AbortSignal.timeout(100) });
    expect(out.success).toBe(false);
    await expect.poll(() => fake.cancelled.length).toBe(1);
  });
});

describe('exa', () => {
  let fake: HttpFake;
  let p: ExaProvider;
  beforeAll(async () => {
    fake = await track(startFakeExa({ key: KEY }));
    p = new ExaProvider({ EXA_API_KEY: KEY, EXA_BASE_URL: fake.url });
  });

  it('search: POST /search with x-api-key, numResults and a text snippet as description', async () => {
    const out = await p.search('weather in paris', 1, { signal: signal() });
    expect(out.success && out.data.web).toEqual([
      {
        title: 'Paris weather today',
        url: 'https://weather.example/paris',
        description: 'Sunny in Paris, 24 °C, light wind from the west.',
        position: 1,
      },
    ]);
    expect(fake.requests.at(-1)?.body).toMatchObject({
      query: 'weather in paris',
      numResults: 1,
      type: 'auto',
      contents: { text: { maxCharacters: 400 } },
    });
    expect(fake.requests.at(-1)?.headers['x-api-key']).toBe(KEY);
  });

  it('extract: POST /contents; statuses errors become page errors; crawl: subpages', async () => {
    const out = await p.extract(['https://news.example/ai', 'https://gone.example/'], extractOptions());
    expect(out.success && out.data).toEqual([
      {
        url: 'https://news.example/ai',
        title: 'AI news roundup',
        content: 'AI news\n\nNew open models this week.',
        raw_content: 'AI news\n\nNew open models this week.',
        metadata: { author: 'Hermes Team' },
      },
      {
        url: 'https://gone.example/',
        title: '',
        content: '',
        raw_content: '',
        error: 'Exa could not fetch this URL: CRAWL_NOT_FOUND (HTTP 404)',
      },
    ]);
    const crawl = await p.crawl('https://hermes.example/docs/install', crawlOptions(5));
    expect(crawl.success && crawl.data.map((d) => d.url)).toEqual([
      'https://hermes.example/docs/install',
      'https://hermes.example/docs/plugins',
    ]);
    expect(fake.requests.at(-1)?.body).toMatchObject({
      urls: ['https://hermes.example/docs/install'],
      text: true,
      subpages: 4,
    });
  });
});

describe('the bundled web plugins through the loader', () => {
  const PLUGINS = fileURLToPath(new URL('../../plugins', import.meta.url));
  const SDK = fileURLToPath(new URL('../../packages/plugin-sdk/src/index.ts', import.meta.url));

  async function load(env: Record<string, string>, enabled: string[] = []) {
    const registries = new PluginRegistries();
    const records = await loadPlugins({
      dirs: [{ dir: PLUGINS, source: 'bundled' }],
      enabled,
      disabled: [],
      env,
      tools: new ToolRegistry(),
      hooks: new HookBus(),
      logger: silentLogger,
      host: { registries },
      aliases: { '@hermes/plugin-sdk': SDK },
    });
    return { records: records.filter((r) => r.key.startsWith('web/')), registries };
  }

  it('load without opt-in (kind: backend) when their env is set, each registering what its manifest declares', async () => {
    const { records, registries } = await load({
      SEARXNG_URL: 'http://127.0.0.1:9',
      BRAVE_SEARCH_API_KEY: 'k',
      TAVILY_API_KEY: 'k',
      FIRECRAWL_API_KEY: 'k',
      EXA_API_KEY: 'k',
      PARALLEL_API_KEY: 'k',
      XAI_API_KEY: 'k',
    });
    expect(records.map((r) => [r.key, r.state, r.error])).toEqual([
      ['web/brave-free', 'enabled', null],
      ['web/ddgs', 'not_enabled', null], // scraping: standalone, so it loads only when enabled
      ['web/exa', 'enabled', null],
      ['web/fetch', 'enabled', null],
      ['web/firecrawl', 'enabled', null],
      ['web/parallel', 'enabled', null],
      ['web/searxng', 'enabled', null],
      ['web/tavily', 'enabled', null],
      ['web/xai', 'enabled', null],
    ]);
    for (const r of records.filter((x) => x.state === 'enabled')) {
      for (const name of r.manifest?.providesWebProviders ?? [])
        expect(registries.webSearchProviders.get(name)?.plugin).toBe(r.key);
    }
    expect([...registries.webSearchProviders.keys()]).toEqual([
      'brave-free',
      'exa',
      'fetch',
      'firecrawl',
      'parallel',
      'searxng',
      'tavily',
      'xai',
    ]);
  });

  it('without env only the key-free fetch provider loads; the others are env_missing', async () => {
    const { records, registries } = await load({});
    expect(records.filter((r) => r.state === 'env_missing').map((r) => [r.key, r.error])).toEqual([
      ['web/brave-free', 'missing: BRAVE_SEARCH_API_KEY'],
      ['web/exa', 'missing: EXA_API_KEY'],
      ['web/firecrawl', 'missing: FIRECRAWL_API_KEY'],
      ['web/parallel', 'missing: PARALLEL_API_KEY'],
      ['web/searxng', 'missing: SEARXNG_URL'],
      ['web/tavily', 'missing: TAVILY_API_KEY'],
      ['web/xai', 'missing: XAI_API_KEY'],
    ]);
    expect([...registries.webSearchProviders.keys()]).toEqual(['fetch']);
  });

  it('the key-free ddgs loads once enabled (hermes plugins enable web/ddgs), a fallback like fetch', async () => {
    const { records, registries } = await load({}, ['web/ddgs']);
    expect(records.find((r) => r.key === 'web/ddgs')).toMatchObject({ state: 'enabled', error: null });
    expect([...registries.webSearchProviders.keys()]).toEqual(['ddgs', 'fetch']);
    expect(registries.webSearchProviders.get('ddgs')?.provider.fallback).toBe(true);
  });
});

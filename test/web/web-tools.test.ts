// web_search / web_extract in-process: routing by each config key and by auto-detection, the helpful errors,
// envelope validation at the boundary, deadlines, SSRF refusals before any provider sees a URL, content caps.
import {
  checkExtractEnvelope,
  checkSearchEnvelope,
  createWebTools,
  routeWebCall,
  type WebToolsConfig,
} from '@hermes/agent';
import { type PluginRecord, PluginRegistries } from '@hermes/plugins';
import { ERROR_CODES, type ToolContext, type ToolDefinition, type WebSearchProvider } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';

const CONFIG: WebToolsConfig = { timeout_s: 5, crawl_timeout_s: 5, max_page_bytes: 100_000, max_content_chars: 1_000 };

/** A provider answering with its own name in every result. */
function provider(
  name: string,
  caps: { search?: boolean; extract?: boolean; crawl?: boolean } = { search: true },
  available = true,
): WebSearchProvider {
  return {
    name,
    isAvailable: () => available,
    supportsSearch: () => caps.search === true,
    supportsExtract: () => caps.extract === true,
    supportsCrawl: () => caps.crawl === true,
    search: (query, limit) => ({
      success: true,
      data: {
        web: Array.from({ length: 30 }, (_, i) => ({
          title: `${name} ${query}`,
          url: `https://${name}.example/${i}`,
          description: 'd',
          position: i + 1,
        })).slice(0, limit + 3),
      },
    }),
    extract: (urls) => ({
      success: true,
      data: urls.map((url) => ({ url, title: name, content: `from ${name}`, raw_content: '<html>' })),
    }),
    crawl: (url, o) => ({
      success: true,
      data: Array.from({ length: o.limit + 2 }, (_, i) => ({
        url: `${url}/${i}`,
        title: name,
        content: 'x'.repeat(2_000),
        raw_content: '',
      })),
    }),
  };
}

function registry(...providers: WebSearchProvider[]) {
  const r = new PluginRegistries();
  for (const p of providers) r.webSearchProviders.set(p.name, { name: p.name, plugin: `web/${p.name}`, provider: p });
  return r.webSearchProviders;
}

function record(key: string, state: PluginRecord['state'], providers: string[], env: string[]): PluginRecord {
  return {
    key,
    dir: `/plugins/${key}`,
    source: 'bundled',
    state,
    tools: [],
    hooks: [],
    commands: [],
    error: state === 'failed' ? 'boom' : null,
    manifest: {
      name: key.replace('/', '-'),
      version: '1.0.0',
      description: '',
      author: null,
      kind: 'backend',
      providesTools: [],
      providesHooks: [],
      providesWebProviders: providers,
      requiresEnv: env,
      requiresEnvDetails: [],
      optionalDependencies: [],
    },
  };
}

const ctx = (signal = new AbortController().signal) => ({ signal }) as ToolContext;

function tools(
  providers: ReturnType<typeof registry>,
  config: Partial<WebToolsConfig> = {},
  plugins: PluginRecord[] = [],
) {
  const [search, extract] = createWebTools({
    providers,
    plugins: () => plugins,
    config: { ...CONFIG, ...config },
    allowPrivateUrls: false,
    // a fake DNS: nothing here may touch the network
    resolve: async (host) => {
      if (host === 'intranet.test') return [{ address: '192.168.1.5', family: 4 }];
      return [{ address: '93.184.216.34', family: 4 }];
    },
  }) as [ToolDefinition, ToolDefinition];
  const run = async (tool: ToolDefinition, args: Record<string, unknown>, signal?: AbortSignal) =>
    tool.handler(args, ctx(signal)) as Promise<
      Record<string, unknown> & { data?: unknown; error?: string; code?: string }
    >;
  return {
    search: (a: Record<string, unknown>, s?: AbortSignal) => run(search, a, s),
    extract: (a: Record<string, unknown>, s?: AbortSignal) => run(extract, a, s),
  };
}

describe('routing', () => {
  const providers = registry(
    provider('brave-free'),
    provider('tavily', { search: true, extract: true, crawl: true }),
    provider('fetch', { extract: true, crawl: true }),
  );
  (providers.get('fetch')?.provider as { fallback?: boolean }).fallback = true;

  it('web.search_backend, then web.backend, then the first available with the capability', async () => {
    expect(
      await routeWebCall('search', { search_backend: 'tavily', backend: 'brave-free' }, { providers }),
    ).toMatchObject({ name: 'tavily', via: 'web.search_backend' });
    expect(await routeWebCall('search', { backend: 'tavily' }, { providers })).toMatchObject({
      name: 'tavily',
      via: 'web.backend',
    });
    expect(await routeWebCall('search', {}, { providers })).toMatchObject({ name: 'brave-free', via: 'auto' });
  });

  it('web.extract_backend for extract and crawl; web.backend without the capability is skipped', async () => {
    expect(await routeWebCall('extract', { extract_backend: 'fetch', backend: 'tavily' }, { providers })).toMatchObject(
      { name: 'fetch', via: 'web.extract_backend' },
    );
    expect(await routeWebCall('crawl', { extract_backend: 'tavily' }, { providers })).toMatchObject({ name: 'tavily' });
    // brave-free is search-only: for extract, web.backend falls through to auto-detection
    expect(await routeWebCall('extract', { backend: 'brave-free' }, { providers })).toMatchObject({
      name: 'tavily',
      via: 'auto',
    });
  });

  it('auto-detection takes key-free fallbacks last and skips unavailable providers', async () => {
    const p = registry(
      provider('fetch', { extract: true }),
      provider('exa', { search: true, extract: true }, false),
      provider('firecrawl', { search: true, extract: true }),
    );
    (p.get('fetch')?.provider as { fallback?: boolean }).fallback = true;
    expect(await routeWebCall('extract', {}, { providers: p })).toMatchObject({ name: 'firecrawl' });
    p.delete('firecrawl');
    expect(await routeWebCall('extract', {}, { providers: p })).toMatchObject({ name: 'fetch' });
  });

  it('a provider named by its own key must work: errors say which key, which plugin, which env var', async () => {
    const plugins = [
      record('web/exa', 'env_missing', ['exa'], ['EXA_API_KEY']),
      record('web/mine', 'not_enabled', ['mine'], []),
      record('web/bad', 'failed', ['bad'], []),
    ];
    const source = { providers, plugins: () => plugins };
    const err = async (config: Parameters<typeof routeWebCall>[1], cap: 'search' | 'extract' = 'search') => {
      const r = await routeWebCall(cap, config, source);
      return r.ok ? '' : r.error;
    };
    expect(await err({ search_backend: 'exa' })).toBe(
      'web.search_backend is "exa", but its plugin web/exa is not loaded: set EXA_API_KEY (in the environment or HERMES_HOME/.env)',
    );
    expect(await err({ backend: 'mine' })).toMatch(
      /^web.backend is "mine", but its plugin web\/mine is not enabled: run `hermes plugins enable web\/mine`/,
    );
    expect(await err({ search_backend: 'bad' })).toMatch(/failed to load: boom/);
    expect(await err({ search_backend: 'travily' })).toMatch(
      /no web provider of that name \(did you mean "tavily"\?\); known providers: bad, brave-free, exa, fetch, mine, tavily/,
    );
    expect(await err({ extract_backend: 'brave-free' }, 'extract')).toBe(
      'web.extract_backend is "brave-free", which does not support extract (web_extract); providers that do: tavily, fetch',
    );
    const off = registry(provider('brave-free', { search: true }, false));
    const r = await routeWebCall(
      'search',
      { search_backend: 'brave-free' },
      {
        providers: off,
        plugins: () => [record('web/brave-free', 'enabled', ['brave-free'], ['BRAVE_SEARCH_API_KEY'])],
      },
    );
    expect(r.ok ? '' : r.error).toBe(
      'web.search_backend is "brave-free", but that provider is not available: check BRAVE_SEARCH_API_KEY',
    );
  });

  it('with nothing available, the error names the config keys and the env vars', async () => {
    const plugins = [
      record('web/searxng', 'env_missing', ['searxng'], ['SEARXNG_URL']),
      record('web/tavily', 'env_missing', ['tavily'], ['TAVILY_API_KEY']),
    ];
    const r = await routeWebCall('search', {}, { providers: registry(), plugins: () => plugins });
    expect(r.ok ? '' : r.error).toBe(
      'no available web provider supports search (web_search). Set SEARXNG_URL (searxng), or TAVILY_API_KEY (tavily) in the environment or HERMES_HOME/.env, or name a provider in config.yaml with web.search_backend (or web.backend).',
    );
  });
});

describe('envelopes', () => {
  it('accept the fixed shapes and explain the first problem of a wrong one', () => {
    expect(checkSearchEnvelope({ success: true, data: { web: [] } }, 'p').ok).toBe(true);
    expect(checkSearchEnvelope({ success: false, error: 'quota' }, 'p')).toEqual({
      ok: true,
      value: { success: false, error: 'quota' },
    });
    expect(checkSearchEnvelope([{ title: 'x' }], 'p')).toEqual({
      ok: false,
      error: 'web provider "p" returned an array from search(), not a {success, data | error} envelope',
    });
    const bad = checkSearchEnvelope(
      { success: true, data: { web: [{ title: 't', url: 5, description: '', position: 1 }] } },
      'p',
    );
    expect(bad.ok ? '' : bad.error).toMatch(
      /^web provider "p" returned an invalid search\(\) envelope: data.web\[0\].url: expected string, got number 5$/,
    );
    const page = checkExtractEnvelope({ success: true, data: [{ url: 'u', title: 't', content: 'c' }] }, 'p');
    expect(page.ok ? '' : page.error).toMatch(/data\[0\]\.raw_content: .*got nothing/);
  });
});

describe('web_search', () => {
  it('answers the envelope with the provider name, cut to the limit', async () => {
    const t = tools(registry(provider('brave-free')));
    const out = await t.search({ query: 'hermes', limit: 2 });
    expect(out).toMatchObject({ success: true, provider: 'brave-free', query: 'hermes' });
    expect((out.data as { web: unknown[] }).web).toHaveLength(2);
    expect((await t.search({ query: 'x', limit: 500 })).data).toMatchObject({ web: expect.any(Array) });
  });

  it('turns bad arguments, throws, hangs and wrong shapes into {success: false} results with codes', async () => {
    expect(await tools(registry(provider('a'))).search({})).toMatchObject({
      success: false,
      code: ERROR_CODES.TOOL_ARGS,
      error: expect.stringMatching(/"query"/),
    });
    const throwing = { ...provider('boom'), search: () => Promise.reject(new Error('quota exceeded')) };
    expect(await tools(registry(throwing)).search({ query: 'q' })).toEqual({
      success: false,
      provider: 'boom',
      code: ERROR_CODES.WEB_PROVIDER,
      error: 'web provider "boom" failed: quota exceeded',
    });
    const hanging = { ...provider('slow'), search: () => new Promise<never>(() => undefined) };
    const started = Date.now();
    const hung = await tools(registry(hanging), { timeout_s: 0.1 }).search({ query: 'q' });
    expect(hung).toMatchObject({
      success: false,
      code: ERROR_CODES.WEB_PROVIDER,
      error: expect.stringMatching(/did not finish the search in time .*web.timeout_s/),
    });
    expect(Date.now() - started).toBeLessThan(2_000);
    const wrong = { ...provider('wrong'), search: () => ({ results: [] }) } as unknown as WebSearchProvider;
    expect(await tools(registry(wrong)).search({ query: 'q' })).toMatchObject({
      code: ERROR_CODES.WEB_PROVIDER,
      error: expect.stringMatching(/not a \{success/),
    });
    const failing = { ...provider('f'), search: () => ({ success: false as const, error: 'rate limited' }) };
    expect(await tools(registry(failing)).search({ query: 'q' })).toMatchObject({
      success: false,
      provider: 'f',
      error: 'rate limited',
    });
    expect(await tools(registry()).search({ query: 'q' })).toMatchObject({
      code: ERROR_CODES.WEB_NO_PROVIDER,
      error: expect.stringMatching(/^web_search: no available web provider/),
    });
  });

  it('an interrupted turn stops waiting for the provider', async () => {
    const hanging = { ...provider('slow'), search: () => new Promise<never>(() => undefined) };
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    expect(await tools(registry(hanging)).search({ query: 'q' }, controller.signal)).toMatchObject({
      code: ERROR_CODES.INTERRUPTED,
    });
  });
});

describe('web_extract', () => {
  it('refuses private URLs before the provider sees them; the others still come back', async () => {
    let seen: string[] = [];
    const p = {
      ...provider('x', { extract: true }),
      extract: (urls: string[]) => {
        seen = urls;
        return {
          success: true as const,
          data: urls.map((url) => ({ url, title: 't', content: 'c', raw_content: 'r' })),
        };
      },
    };
    const out = await tools(registry(p)).extract({
      urls: ['https://ok.example/a', 'http://127.0.0.1:8080/admin', 'http://intranet.test/', 'file:///etc/passwd'],
    });
    expect(seen).toEqual(['https://ok.example/a']);
    expect(out).toMatchObject({ success: true, provider: 'x' });
    const data = out.data as { url: string; error?: string; raw_content?: string }[];
    expect(data.map((d) => [d.url, d.error?.replace(/;.*/, '')])).toEqual([
      ['https://ok.example/a', undefined],
      ['http://127.0.0.1:8080/admin', 'refused: 127.0.0.1 is a loopback address (loopback)'],
      [
        'http://intranet.test/',
        'refused: intranet.test resolves to 192.168.1.5 is a private address (RFC 1918 private network)',
      ],
      ['file:///etc/passwd', 'only http and https URLs can be fetched, not file: file:///etc/passwd'],
    ]);
    expect(data[0]).not.toHaveProperty('raw_content');
    const one = await tools(registry(p)).extract({ urls: 'http://[::1]/' });
    expect(one).toMatchObject({
      success: false,
      code: ERROR_CODES.WEB_URL_REFUSED,
      error: expect.stringMatching(/::1 is a loopback address.*security.allow_private_urls/),
    });
  });

  it('crawl mode routes to a crawl provider, takes one URL and caps pages and content', async () => {
    const t = tools(
      registry(provider('brave-free'), provider('tavily', { search: true, extract: true, crawl: true })),
      { max_content_chars: 1_000 },
    );
    const out = await t.extract({ urls: ['https://docs.example'], mode: 'crawl', limit: 3 });
    expect(out).toMatchObject({ success: true, provider: 'tavily', mode: 'crawl' });
    const pages = out.data as { content: string; metadata?: { content_cut_chars?: number } }[];
    expect(pages).toHaveLength(3);
    expect(pages[0]?.content).toMatch(/^x{1000}\n\n\[\.\.\. 1000 more characters not shown \.\.\.\]$/);
    expect(pages[0]?.metadata?.content_cut_chars).toBe(1_000);
    expect(await t.extract({ urls: ['https://a.example', 'https://b.example'], mode: 'crawl' })).toMatchObject({
      code: ERROR_CODES.TOOL_ARGS,
    });
    expect(await t.extract({ urls: ['https://a.example'], mode: 'deep' })).toMatchObject({
      error: expect.stringMatching(/one of page, crawl/),
    });
    expect(
      await tools(registry(provider('tavily', { search: true, extract: true })), { extract_backend: 'tavily' }).extract(
        { urls: ['https://a.example'], mode: 'crawl' },
      ),
    ).toMatchObject({
      code: ERROR_CODES.WEB_NO_PROVIDER,
      error:
        'web_extract: web.extract_backend is "tavily", which does not support crawl (web_extract with mode "crawl")',
    });
  });
});

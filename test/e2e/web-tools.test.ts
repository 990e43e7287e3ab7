// Acceptance of the web tools through `hermes -z`: a fake model calls web_search / web_extract, each bundled
// provider answers from a fake of its API on 127.0.0.1; routing by each config key and by auto-detection; a user
// provider overriding a bundled one; SSRF refused by default and allowed with security.allow_private_urls.
// The fake model reads its plan from the prompt (`CALL [...]`), so the runs are independent and go in parallel.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOpenAI, type FakeToolCall, startFakeOpenAI } from '../fakes/openai-server.js';
import { startFakeBrave } from '../fakes/web/brave-server.js';
import { startFakeExa } from '../fakes/web/exa-server.js';
import { type FakeFirecrawl, startFakeFirecrawl } from '../fakes/web/firecrawl-server.js';
import type { HttpFake } from '../fakes/web/http-fake.js';
import { startFakeSearxng } from '../fakes/web/searxng-server.js';
import { type FakeSite, startFakeSite } from '../fakes/web/site-server.js';
import { startFakeTavily } from '../fakes/web/tavily-server.js';
import { answerWithCallPlan } from '../helpers/call-plan.js';
import { runHermes, tempHome, trustHome } from '../helpers/run-hermes.js';

const KEY = 'e2e-web-key-0123456789';

let model: FakeOpenAI;
let searxng: HttpFake;
let brave: HttpFake;
let tavily: HttpFake;
let firecrawl: FakeFirecrawl;
let exa: HttpFake;
let site: FakeSite;

beforeAll(async () => {
  [model, searxng, brave, tavily, firecrawl, exa, site] = await Promise.all([
    startFakeOpenAI(),
    startFakeSearxng(),
    startFakeBrave({ key: KEY }),
    startFakeTavily({ key: KEY }),
    startFakeFirecrawl({ key: KEY }),
    startFakeExa({ key: KEY }),
    startFakeSite(),
  ]);
  // first request: the tool calls the prompt asks for; second: every tool result, one JSON per line
  answerWithCallPlan(model);
});

afterAll(() => Promise.all([model, searxng, brave, tavily, firecrawl, exa, site].map((f) => f?.close())));

/** No web provider configured unless a test says so. */
const NO_WEB_ENV = {
  SEARXNG_URL: '',
  BRAVE_SEARCH_API_KEY: '',
  TAVILY_API_KEY: '',
  FIRECRAWL_API_KEY: '',
  EXA_API_KEY: '',
};

interface ToolResult {
  success: boolean;
  provider?: string;
  error?: string;
  code?: string;
  data?: unknown;
}

async function run(
  calls: FakeToolCall[],
  options: { env?: Record<string, string>; config?: string; home?: string } = {},
): Promise<ToolResult[]> {
  const home = options.home ?? tempHome();
  if (options.config) writeFileSync(join(home, 'config.yaml'), options.config);
  const r = await runHermes(['-z', `CALL ${JSON.stringify(calls)}`], {
    env: {
      HERMES_HOME: home,
      OPENAI_BASE_URL: model.url,
      HERMES_INFERENCE_MODEL: 'test-model',
      ...NO_WEB_ENV,
      ...options.env,
    },
    timeoutMs: 30_000,
  });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as ToolResult);
}

const search = (query: string): FakeToolCall => ({ name: 'web_search', arguments: { query, limit: 3 } });
const extract = (...urls: string[]): FakeToolCall => ({ name: 'web_extract', arguments: { urls } });
const titles = (r: ToolResult | undefined) =>
  ((r?.data as { web?: { title: string }[] })?.web ?? []).map((h) => h.title);
const asked = (fake: HttpFake, query: string) =>
  fake.requests.some((r) => r.query.get('q') === query || (r.body as { query?: string } | undefined)?.query === query);

describe.concurrent('hermes -z with a model calling web_search', () => {
  const cases: [string, () => HttpFake, () => Record<string, string>, string, string][] = [
    ['searxng', () => searxng, () => ({ SEARXNG_URL: searxng.url }), 'searxng paris weather', 'Paris weather today'],
    [
      'brave-free',
      () => brave,
      () => ({ BRAVE_SEARCH_API_KEY: KEY, BRAVE_SEARCH_BASE_URL: brave.url }),
      'brave hermes plugins',
      'Writing Hermes plugins',
    ],
    [
      'tavily',
      () => tavily,
      () => ({ TAVILY_API_KEY: KEY, TAVILY_BASE_URL: tavily.url }),
      'tavily ai news',
      'AI news roundup',
    ],
    [
      'firecrawl',
      () => firecrawl,
      () => ({ FIRECRAWL_API_KEY: KEY, FIRECRAWL_BASE_URL: firecrawl.url }),
      'firecrawl install hermes',
      'Installing Hermes',
    ],
    ['exa', () => exa, () => ({ EXA_API_KEY: KEY, EXA_BASE_URL: exa.url }), 'exa solar report', 'Solar report 2025'],
  ];

  it.each(
    cases,
  )('%s: its env alone selects it, and its results reach the answer', async (name, fake, env, query, title) => {
    const [result] = await run([search(query)], { env: env() });
    expect(result).toMatchObject({ success: true, provider: name });
    expect(titles(result)[0]).toBe(title);
    expect(asked(fake(), query)).toBe(true);
  });
});

describe.concurrent('routing', () => {
  const everything = () => ({
    SEARXNG_URL: searxng.url,
    BRAVE_SEARCH_API_KEY: KEY,
    BRAVE_SEARCH_BASE_URL: brave.url,
    TAVILY_API_KEY: KEY,
    TAVILY_BASE_URL: tavily.url,
    FIRECRAWL_API_KEY: KEY,
    FIRECRAWL_BASE_URL: firecrawl.url,
    EXA_API_KEY: KEY,
    EXA_BASE_URL: exa.url,
  });

  it('web.search_backend and web.extract_backend pick each tool its provider over web.backend', async () => {
    const [s, e] = await run([search('routing keys solar'), extract('https://93.184.216.34/solar')], {
      env: everything(),
      config: 'web:\n  backend: brave-free\n  search_backend: tavily\n  extract_backend: exa\n',
    });
    expect(s).toMatchObject({ success: true, provider: 'tavily' });
    expect(e).toMatchObject({ success: true, provider: 'exa', data: [{ title: 'Solar report 2025' }] });
  });

  it('web.backend serves both tools when the specific keys are unset', async () => {
    const [s, e] = await run([search('routing backend solar'), extract('https://93.184.216.34/solar')], {
      env: everything(),
      config: 'web:\n  backend: firecrawl\n',
    });
    expect(s).toMatchObject({ success: true, provider: 'firecrawl' });
    expect(e).toMatchObject({ success: true, provider: 'firecrawl', data: [{ title: 'Solar report 2025' }] });
  });

  it('auto-detection: the provider whose env is set for search, the key-free fetcher for extract', async () => {
    const [s, e] = await run([search('auto detect hermes'), extract(`${site.url}/article`)], {
      env: { BRAVE_SEARCH_API_KEY: KEY, BRAVE_SEARCH_BASE_URL: brave.url },
      config: 'security:\n  allow_private_urls: true\n',
    });
    expect(s).toMatchObject({ success: true, provider: 'brave-free' });
    expect(e).toMatchObject({ success: true, provider: 'fetch' });
    const [page] = e?.data as { title: string; content: string }[];
    expect(page?.title).toBe('Solar power in 2025 | Fake Site');
    expect(page?.content).toMatch(/^# Solar power in 2025\n\nBy \[Ann\]/);
    expect(page?.content).not.toMatch(/Privacy|Share on social/);
  });

  it('with no provider for search, the error names the config keys and the env vars', async () => {
    const [s] = await run([search('nothing configured')]);
    expect(s).toMatchObject({ success: false, code: 'HERMES_WEB_NO_PROVIDER' });
    for (const needle of [
      'web.search_backend',
      'web.backend',
      'SEARXNG_URL',
      'BRAVE_SEARCH_API_KEY',
      'TAVILY_API_KEY',
      'FIRECRAWL_API_KEY',
      'EXA_API_KEY',
    ]) {
      expect(s?.error).toContain(needle);
    }
  });

  it('a configured provider whose key is missing says which env var to set', async () => {
    const [s] = await run([search('missing key')], { config: 'web:\n  search_backend: tavily\n' });
    expect(s?.error).toBe(
      'web_search: web.search_backend is "tavily", but its plugin web/tavily is not loaded: set TAVILY_API_KEY (in the environment or HERMES_HOME/.env)',
    );
  });
});

describe.concurrent('a user provider', () => {
  it('in HERMES_HOME/plugins/web/<name>/, enabled, overrides the bundled provider of that name', async () => {
    const home = tempHome();
    const dir = join(home, 'plugins', 'web', 'brave-free');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'plugin.yaml'),
      'name: my-brave\nversion: 2.0.0\nkind: backend\nprovides_web_providers:\n  - brave-free\n',
    );
    writeFileSync(
      join(dir, 'index.ts'),
      `import { defineWebSearchProvider, type PluginContext } from '@hermes/plugin-sdk';

export function register(ctx: PluginContext): void {
  ctx.registerWebSearchProvider(
    defineWebSearchProvider({
      name: 'brave-free',
      isAvailable: () => true,
      search: async (query) => ({
        success: true,
        data: { web: [{ title: 'from my own brave-free: ' + query, url: 'https://mine.example/', description: '', position: 1 }] },
      }),
    }),
  );
}
`,
    );
    const bundledBefore = brave.requests.length;
    const env = { BRAVE_SEARCH_API_KEY: KEY, BRAVE_SEARCH_BASE_URL: brave.url };
    writeFileSync(join(home, 'config.yaml'), 'plugins:\n  enabled: [web/brave-free]\n');
    trustHome(home); // a user plugin loads once the operator approved it
    const [s] = await run([search('override me')], { home, env });
    expect(s).toMatchObject({ success: true, provider: 'brave-free' });
    expect(titles(s)).toEqual(['from my own brave-free: override me']);
    expect(brave.requests.slice(bundledBefore).some((r) => r.query.get('q') === 'override me')).toBe(false);

    const list = await runHermes(['plugins', 'list', '--json'], { env: { HERMES_HOME: home, ...NO_WEB_ENV, ...env } });
    const entry = (JSON.parse(list.stdout) as { key: string; source: string; state: string; version: string }[]).find(
      (p) => p.key === 'web/brave-free',
    );
    expect(entry).toMatchObject({ source: 'user', state: 'enabled', version: '2.0.0' });
  });
});

describe.concurrent('SSRF', () => {
  it('extracting a URL that is or resolves to 127.0.0.1 is refused by default, and nothing is fetched', async () => {
    // paths no other (concurrent) test asks for, so "never requested" is this test's own fact
    const [e] = await run([extract(`${site.url}/refused/literal`, `http://localhost:${site.port}/refused/by-name`)]);
    expect(e).toMatchObject({ success: true });
    const pages = e?.data as { url: string; error?: string }[];
    expect(pages.map((p) => p.error?.replace(/ \(.*$/, ''))).toEqual([
      'refused: 127.0.0.1 is a loopback address',
      expect.stringMatching(/^refused: localhost resolves to (127\.0\.0\.1|::1) is a loopback address/),
    ]);
    expect(pages[0]?.error).toContain('security.allow_private_urls');
    expect(site.hits.filter((h) => h.startsWith('/refused/'))).toEqual([]);
  });

  it('allowed with security.allow_private_urls: true', async () => {
    const [e] = await run([extract(`${site.url}/secret`)], { config: 'security:\n  allow_private_urls: true\n' });
    expect(e).toMatchObject({ success: true, provider: 'fetch' });
    expect((e?.data as { content: string }[])[0]?.content).toContain('top secret internal data');
  });
});

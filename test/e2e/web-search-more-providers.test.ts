// The ddgs, parallel and xai web search providers through the built CLI (`hermes -z` with a fake model calling
// web_search and web_extract), each answering from a fake of its service on 127.0.0.1: parallel (search and
// extract) and xai chosen by their key alone;
// ddgs (scraping) never used until its plugin is enabled, then a fallback behind any keyed provider, its rate-limit
// page a clear tool error; no key in the output, the logs or state.db.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOpenAI, type FakeToolCall, startFakeOpenAI } from '../fakes/openai-server.js';
import { type FakeDdgs, startFakeDdgs } from '../fakes/web/ddgs-server.js';
import type { HttpFake } from '../fakes/web/http-fake.js';
import { startFakeParallel } from '../fakes/web/parallel-server.js';
import { startFakeXai } from '../fakes/web/xai-server.js';
import { answerWithCallPlan } from '../helpers/call-plan.js';
import { type RunResult, runHermes, tempHome } from '../helpers/run-hermes.js';

const PARALLEL_KEY = 'e2e-parallel-key-0123456789';
const XAI_KEY = 'e2e-xai-key-0123456789';

let model: FakeOpenAI;
let ddgs: FakeDdgs;
let limitedDdgs: FakeDdgs;
let parallel: HttpFake;
let xai: HttpFake;

beforeAll(async () => {
  [model, ddgs, limitedDdgs, parallel, xai] = await Promise.all([
    startFakeOpenAI(),
    startFakeDdgs(),
    startFakeDdgs(),
    startFakeParallel({ key: PARALLEL_KEY }),
    startFakeXai({ key: XAI_KEY }),
  ]);
  limitedDdgs.setMode('limited-202');
  answerWithCallPlan(model);
});
afterAll(() => Promise.all([model, ddgs, limitedDdgs, parallel, xai].map((f) => f?.close())));

/** No web provider configured unless a test says so (the caller's own keys never reach a test). */
const NO_WEB_ENV = {
  SEARXNG_URL: '',
  BRAVE_SEARCH_API_KEY: '',
  TAVILY_API_KEY: '',
  FIRECRAWL_API_KEY: '',
  EXA_API_KEY: '',
  PARALLEL_API_KEY: '',
  XAI_API_KEY: '',
};

interface ToolResult {
  success: boolean;
  provider?: string;
  error?: string;
  code?: string;
  data?: unknown;
}

interface Run {
  results: ToolResult[];
  raw: RunResult;
  home: string;
}

async function run(
  calls: FakeToolCall[],
  options: { env?: Record<string, string>; config?: string; home?: string } = {},
): Promise<Run> {
  const home = options.home ?? tempHome();
  if (options.config) writeFileSync(join(home, 'config.yaml'), options.config);
  const raw = await runHermes(['-z', `CALL ${JSON.stringify(calls)}`], {
    env: {
      HERMES_HOME: home,
      OPENAI_BASE_URL: model.url,
      HERMES_INFERENCE_MODEL: 'test-model',
      ...NO_WEB_ENV,
      ...options.env,
    },
    timeoutMs: 30_000,
  });
  expect(raw.code, raw.stderr).toBe(0);
  const results = raw.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as ToolResult);
  return { results, raw, home };
}

const search = (query: string): FakeToolCall => ({ name: 'web_search', arguments: { query, limit: 3 } });
const titles = (r: ToolResult | undefined) =>
  ((r?.data as { web?: { title: string }[] } | undefined)?.web ?? []).map((h) => h.title);
const ddgsAsked = (fake: FakeDdgs, query: string) => fake.forms().some((f) => f.get('q') === query);

/** Every file under `dir`, as text. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile())
    .map((f) => readFileSync(f).toString('latin1'));
}

describe.concurrent('hermes -z with parallel and xai', () => {
  it('parallel: PARALLEL_API_KEY alone selects it for search and extract; the key is nowhere', async () => {
    const env = { PARALLEL_API_KEY: PARALLEL_KEY, PARALLEL_BASE_URL: parallel.url };
    const extract: FakeToolCall = { name: 'web_extract', arguments: { urls: ['https://93.184.216.34/solar'] } };
    const { results, raw, home } = await run([search('parallel solar report'), extract], { env });
    expect(results[0]).toMatchObject({ success: true, provider: 'parallel' });
    expect(titles(results[0])[0]).toBe('Solar report 2025');
    expect(results[1]).toMatchObject({ success: true, provider: 'parallel', data: [{ title: 'Solar report 2025' }] });
    const sent = parallel.requests.find(
      (r) => (r.body as { objective?: string }).objective === 'parallel solar report',
    );
    expect(sent?.headers['x-api-key']).toBe(PARALLEL_KEY);
    for (const text of [raw.stdout, raw.stderr, ...filesUnder(home)]) expect(text).not.toContain(PARALLEL_KEY);
  });

  it('xai: XAI_API_KEY alone selects it; the cited sources reach the answer; the key is nowhere', async () => {
    const env = { XAI_API_KEY: XAI_KEY, XAI_BASE_URL: `${xai.url}/v1` };
    const { results, raw, home } = await run([search('xai ai news')], { env });
    expect(results[0]).toMatchObject({ success: true, provider: 'xai' });
    expect(titles(results[0])[0]).toBe('AI news roundup');
    const sent = xai.requests.find((r) => JSON.stringify(r.body).includes('Query: xai ai news'));
    expect(sent?.headers.authorization).toBe(`Bearer ${XAI_KEY}`);
    for (const text of [raw.stdout, raw.stderr, ...filesUnder(home)]) expect(text).not.toContain(XAI_KEY);
  });

  it('a wrong xAI key is a tool error with xAI’s message, and the key given is not in it', async () => {
    const { results } = await run([search('xai wrong key')], {
      env: { XAI_API_KEY: 'xai-not-the-key-987654', XAI_BASE_URL: `${xai.url}/v1` },
    });
    expect(results[0]).toMatchObject({ success: false });
    expect(results[0]?.error).toContain('xAI answered HTTP 400: Incorrect API key provided');
    expect(JSON.stringify(results[0])).not.toContain('xai-not-the-key-987654');
  });
});

describe.concurrent('ddgs: off until chosen', () => {
  it('not enabled: never asked, even with nothing else for search; named in config, the error says how to enable it', async () => {
    const env = { DDGS_BASE_URL: ddgs.url };
    const { results } = await run([search('ddgs not enabled')], { env });
    expect(results[0]).toMatchObject({ success: false, code: 'HERMES_WEB_NO_PROVIDER' });
    const named = await run([search('ddgs named not enabled')], { env, config: 'web:\n  search_backend: ddgs\n' });
    expect(named.results[0]?.error).toBe(
      'web_search: web.search_backend is "ddgs", but its plugin web/ddgs is not enabled: run `hermes plugins enable web/ddgs` or add it to plugins.enabled',
    );
    expect(ddgsAsked(ddgs, 'ddgs not enabled') || ddgsAsked(ddgs, 'ddgs named not enabled')).toBe(false);
  });

  it('enabled with `hermes plugins enable web/ddgs`: it serves web_search with no key at all', async () => {
    const home = tempHome();
    const on = await runHermes(['plugins', 'enable', 'web/ddgs'], { env: { HERMES_HOME: home } });
    expect(on.code, on.stderr).toBe(0);
    const { results } = await run([search('ddgs paris weather')], { home, env: { DDGS_BASE_URL: ddgs.url } });
    expect(results[0]).toMatchObject({ success: true, provider: 'ddgs' });
    expect(titles(results[0])).toEqual(['Paris weather today']);
    expect(ddgsAsked(ddgs, 'ddgs paris weather')).toBe(true);
  });

  it('enabled, it is a fallback: a keyed provider wins auto-detection, web.search_backend: ddgs picks it', async () => {
    const env = { DDGS_BASE_URL: ddgs.url, PARALLEL_API_KEY: PARALLEL_KEY, PARALLEL_BASE_URL: parallel.url };
    const auto = await run([search('ddgs behind parallel')], { env, config: 'plugins:\n  enabled: [web/ddgs]\n' });
    expect(auto.results[0]).toMatchObject({ success: true, provider: 'parallel' });
    expect(ddgsAsked(ddgs, 'ddgs behind parallel')).toBe(false);
    const chosen = await run([search('ddgs chosen hermes')], {
      env,
      config: 'plugins:\n  enabled: [web/ddgs]\nweb:\n  search_backend: ddgs\n',
    });
    expect(chosen.results[0]).toMatchObject({ success: true, provider: 'ddgs' });
    expect(ddgsAsked(ddgs, 'ddgs chosen hermes')).toBe(true);
  });

  it("DuckDuckGo's bot-check page is a tool error that says it is rate-limiting and what to do", async () => {
    const { results } = await run([search('ddgs limited')], {
      env: { DDGS_BASE_URL: limitedDdgs.url },
      config: 'plugins:\n  enabled: [web/ddgs]\nweb:\n  search_backend: ddgs\n',
    });
    expect(results[0]).toMatchObject({ success: false });
    expect(results[0]?.error).toMatch(/DuckDuckGo is rate-limiting this address \(HTTP 202, its bot-check page/);
    expect(results[0]?.error).toContain('web.search_backend');
    expect(limitedDdgs.forms().filter((f) => f.get('q') === 'ddgs limited')).toHaveLength(1);
  });
});

// The Parallel provider (plugins/web/parallel) against a fake of the Parallel Search and Extract APIs on 127.0.0.1:
// what it sends (POST /v1/search and /v1/extract, x-api-key, the query as keyword query and objective, max_results,
// the mode, full content) and how answers and errors become the envelope.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParallelProvider } from '../../plugins/web/parallel/provider.js';
import type { HttpFake } from '../fakes/web/http-fake.js';
import { startFakeParallel } from '../fakes/web/parallel-server.js';

const KEY = 'parallel-test-key-0123456789';
const signal = () => new AbortController().signal;

let fake: HttpFake;
beforeAll(async () => {
  fake = await startFakeParallel({ key: KEY });
});
afterAll(() => fake.close());

describe('parallel', () => {
  it('POST /v1/search with x-api-key, the query as search_queries and objective, max_results; excerpts as description', async () => {
    const p = new ParallelProvider({ PARALLEL_API_KEY: KEY, PARALLEL_BASE_URL: fake.url });
    expect([p.isAvailable(), p.supportsSearch(), p.supportsExtract(), p.supportsCrawl()]).toEqual([
      true,
      true,
      true,
      false,
    ]);
    const out = await p.search('paris weather', 1, { signal: signal() });
    expect(out).toEqual({
      success: true,
      data: {
        web: [
          {
            title: 'Paris weather today',
            url: 'https://weather.example/paris',
            description: 'Sunny in Paris, 24 °C, light wind from the west. … Sunny, 24 °C.',
            position: 1,
          },
        ],
      },
    });
    const req = fake.requests.at(-1);
    expect([req?.method, req?.path, req?.headers['x-api-key']]).toEqual(['POST', '/v1/search', KEY]);
    expect(req?.body).toEqual({
      search_queries: ['paris weather'],
      objective: 'paris weather',
      advanced_settings: { max_results: 1 },
    });
  });

  it('asks at most 20 results, cuts a long query to the API bounds, and sends PARALLEL_SEARCH_MODE', async () => {
    const p = new ParallelProvider({
      PARALLEL_API_KEY: KEY,
      PARALLEL_BASE_URL: fake.url,
      PARALLEL_SEARCH_MODE: 'Basic',
    });
    const long = `hermes ${'x'.repeat(6_000)}`;
    const out = await p.search(long, 50, { signal: signal() });
    expect(out.success).toBe(true);
    const body = fake.requests.at(-1)?.body as {
      search_queries: string[];
      objective: string;
      mode: string;
      advanced_settings: { max_results: number };
    };
    expect([body.search_queries[0]?.length, body.objective.length, body.mode, body.advanced_settings]).toEqual([
      200,
      5_000,
      'basic',
      { max_results: 20 },
    ]);
  });

  it('extract: POST /v1/extract asking full content; its errors become page errors', async () => {
    const p = new ParallelProvider({ PARALLEL_API_KEY: KEY, PARALLEL_BASE_URL: fake.url });
    const noFetch = async () => {
      throw new Error('a remote provider must not fetch pages itself');
    };
    const out = await p.extract(['https://weather.example/paris', 'https://gone.example/'], {
      format: 'text',
      signal: signal(),
      fetchPage: noFetch,
    });
    expect(out).toEqual({
      success: true,
      data: [
        {
          url: 'https://weather.example/paris',
          title: 'Paris weather today',
          content: '# Paris weather\n\nSunny, 24 °C.',
          raw_content: '# Paris weather\n\nSunny, 24 °C.',
        },
        {
          url: 'https://gone.example/',
          title: '',
          content: '',
          raw_content: '',
          error: 'Parallel could not extract this URL: fetch_error (HTTP 404)',
        },
      ],
    });
    const req = fake.requests.at(-1);
    expect([req?.path, req?.headers['x-api-key'], req?.body]).toEqual([
      '/v1/extract',
      KEY,
      { urls: ['https://weather.example/paris', 'https://gone.example/'], advanced_settings: { full_content: true } },
    ]);
  });

  it("a wrong key is Parallel's own message; a bad mode and a missing key fail before any request", async () => {
    const bad = new ParallelProvider({ PARALLEL_API_KEY: 'nope', PARALLEL_BASE_URL: fake.url });
    expect(await bad.search('x', 1, { signal: signal() })).toEqual({
      success: false,
      error: 'Parallel answered HTTP 401: Invalid API key',
    });
    const before = fake.requests.length;
    const mode = new ParallelProvider({
      PARALLEL_API_KEY: KEY,
      PARALLEL_BASE_URL: fake.url,
      PARALLEL_SEARCH_MODE: 'turbo',
    });
    expect(await mode.search('x', 1, { signal: signal() })).toEqual({
      success: false,
      error: 'PARALLEL_SEARCH_MODE must be basic or advanced (got "turbo")',
    });
    const none = new ParallelProvider({ PARALLEL_BASE_URL: fake.url });
    expect(none.isAvailable()).toBe(false);
    expect(await none.search('x', 1, { signal: signal() })).toEqual({
      success: false,
      error: 'PARALLEL_API_KEY is not set',
    });
    expect(fake.requests.length).toBe(before);
  });
});

// The xAI provider (plugins/web/xai) against a fake of the xAI Responses API on 127.0.0.1: what it sends
// (POST /v1/responses, Bearer key, the model, Grok's web_search tool, a prompt with the query) and how the
// answer's citations become hits and xAI's errors the envelope's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { citationHits } from '../../plugins/web/xai/citations.js';
import { DEFAULT_MODEL, XaiSearchProvider } from '../../plugins/web/xai/provider.js';
import type { HttpFake } from '../fakes/web/http-fake.js';
import { startFakeXai } from '../fakes/web/xai-server.js';

const KEY = 'xai-test-key-0123456789';
const signal = () => new AbortController().signal;

let fake: HttpFake;
beforeAll(async () => {
  fake = await startFakeXai({ key: KEY });
});
afterAll(() => fake.close());

describe('xai', () => {
  it('POST /v1/responses with Bearer auth, the model and the web_search tool; cited sources first, then the others', async () => {
    const p = new XaiSearchProvider({ XAI_API_KEY: KEY, XAI_BASE_URL: `${fake.url}/v1` });
    expect([p.isAvailable(), p.supportsSearch(), p.supportsExtract(), p.supportsCrawl()]).toEqual([
      true,
      true,
      false,
      false,
    ]);
    const out = await p.search('hermes plugins', 3, { signal: signal() });
    expect(out).toEqual({
      success: true,
      data: {
        web: [
          {
            title: 'Writing Hermes plugins',
            url: 'https://hermes.example/docs/plugins',
            description: 'A plugin is a folder with plugin.yaml and index.ts exporting register(ctx).',
            position: 1,
          },
          {
            // its annotation is titled "2" only: the host names it
            title: 'hermes.example',
            url: 'https://hermes.example/docs/install',
            description: 'Install Hermes with npm and run hermes -z to ask one question.',
            position: 2,
          },
          {
            // in `citations` only (looked at, not cited): no title, no description
            title: 'weather.example',
            url: 'https://weather.example/paris',
            description: '',
            position: 3,
          },
        ],
      },
    });
    const req = fake.requests.at(-1);
    expect([req?.path, req?.headers.authorization]).toEqual(['/v1/responses', `Bearer ${KEY}`]);
    const body = req?.body as { model: string; input: { role: string; content: string }[]; tools: unknown[] };
    expect(body.model).toBe(DEFAULT_MODEL);
    expect(body.tools).toEqual([{ type: 'web_search' }]);
    expect(body.input).toHaveLength(1);
    expect(body.input[0]?.role).toBe('user');
    expect(body.input[0]?.content).toMatch(/cite up to 3 different pages/);
    expect(body.input[0]?.content).toMatch(/\nQuery: hermes plugins$/);
    expect(Object.keys(body).sort()).toEqual(['input', 'model', 'tools']); // no search_parameters: Live Search is gone
  });

  it('XAI_SEARCH_MODEL picks the model; hits are cut to the limit and only http(s) URLs are kept', async () => {
    const p = new XaiSearchProvider({ XAI_API_KEY: KEY, XAI_BASE_URL: `${fake.url}/v1`, XAI_SEARCH_MODEL: 'grok-4.3' });
    const out = await p.search('hermes', 20, { signal: signal() });
    expect((fake.requests.at(-1)?.body as { model: string }).model).toBe('grok-4.3');
    expect(out.success && out.data.web.map((h) => h.url)).toEqual([
      'https://hermes.example/docs/install',
      'https://hermes.example/docs/plugins',
      'https://weather.example/paris',
      'https://93.184.216.34/solar',
    ]);
    const one = await p.search('hermes', 1, { signal: signal() });
    expect(one.success && one.data.web).toHaveLength(1);
  });

  it("xAI's errors: a wrong key (its message, not the key), an error inside a 200 answer, a missing key", async () => {
    const bad = new XaiSearchProvider({ XAI_API_KEY: 'xai-wrong-key', XAI_BASE_URL: `${fake.url}/v1` });
    const wrong = await bad.search('x', 1, { signal: signal() });
    expect(wrong).toEqual({
      success: false,
      error:
        'xAI answered HTTP 400: Incorrect API key provided: xa***ng. You can obtain an API key from https://console.x.ai.',
    });
    expect(JSON.stringify(wrong)).not.toContain('xai-wrong-key');
    const p = new XaiSearchProvider({ XAI_API_KEY: KEY, XAI_BASE_URL: `${fake.url}/v1` });
    expect(await p.search('overloaded', 1, { signal: signal() })).toEqual({
      success: false,
      error: 'xAI answered with an error: The model is overloaded',
    });
    const none = new XaiSearchProvider({});
    expect([none.isAvailable(), await none.search('x', 1, { signal: signal() })]).toEqual([
      false,
      { success: false, error: 'XAI_API_KEY is not set' },
    ]);
  });

  it('reads citations without inline marks by their annotation index, and without annotations by `citations` alone', () => {
    const text = 'First claim. Second claim about solar.';
    const at = text.indexOf(' Second') + 1 + 'Second claim about solar.'.length; // after the sentence
    expect(
      citationHits(
        {
          output: [
            {
              type: 'message',
              content: [
                {
                  type: 'output_text',
                  text,
                  annotations: [{ type: 'url_citation', url: 'https://s.example/', title: 'Solar', start_index: at }],
                },
              ],
            },
          ],
          citations: ['https://s.example/', 'https://t.example/page'],
        },
        5,
      ),
    ).toEqual([
      { title: 'Solar', url: 'https://s.example/', description: 'Second claim about solar.' },
      { title: 't.example', url: 'https://t.example/page', description: '' },
    ]);
    expect(citationHits({ citations: 'nope', output: {} }, 5)).toEqual([]);
  });
});

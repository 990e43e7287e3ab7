// The key-free DuckDuckGo provider (plugins/web/ddgs) against a fake of html.duckduckgo.com/html/ on 127.0.0.1:
// what it sends (one form POST: q, b, l; a browser User-Agent), how the results page is read (ads dropped,
// DuckDuckGo's redirect links unwrapped, marks and references decoded), and how refusals are told.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeEntities, parseResults, resultUrl } from '../../plugins/web/ddgs/html-results.js';
import { DdgsProvider } from '../../plugins/web/ddgs/provider.js';
import { type FakeDdgs, startFakeDdgs } from '../fakes/web/ddgs-server.js';

const signal = () => new AbortController().signal;

let fake: FakeDdgs;
beforeAll(async () => {
  fake = await startFakeDdgs();
});
afterAll(() => fake.close());

describe('ddgs: a search', () => {
  it('is one form POST of q, b and l to /html/ with a browser User-Agent; results come in page order, ads left out', async () => {
    fake.setMode('results');
    const p = new DdgsProvider({ DDGS_BASE_URL: fake.url });
    expect([p.isAvailable(), p.fallback, p.supportsSearch(), p.supportsExtract(), p.supportsCrawl()]).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
    const before = fake.requests.length;
    const out = await p.search('hermes plugins', 2, { signal: signal() });
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
            // its link went through //duckduckgo.com/l/?uddg=...: the result is the page it leads to
            title: 'Installing Hermes',
            url: 'https://hermes.example/docs/install',
            description: 'Install Hermes with npm and run hermes -z to ask one question.',
            position: 2,
          },
        ],
      },
    });
    const sent = fake.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.method).toBe('POST');
    expect(sent[0]?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(sent[0]?.headers['user-agent']).toMatch(/^Mozilla\/5\.0 /);
    expect([...new URLSearchParams(sent[0]?.rawBody).entries()]).toEqual([
      ['q', 'hermes plugins'],
      ['b', ''],
      ['l', 'us-en'],
    ]);
  });

  it('DDGS_REGION sets l; a limit above the page gives the page; "No results." is an empty success', async () => {
    fake.setMode('results');
    const p = new DdgsProvider({ DDGS_BASE_URL: fake.url, DDGS_REGION: 'de-de' });
    const out = await p.search('paris weather', 20, { signal: signal() });
    expect(out.success && out.data.web.map((h) => h.url)).toEqual(['https://weather.example/paris']);
    expect(fake.forms().at(-1)?.get('l')).toBe('de-de');
    expect(await p.search('nothing-at-all', 5, { signal: signal() })).toEqual({ success: true, data: { web: [] } });
  });
});

describe('ddgs: refusals and failures are clear errors, never retried', () => {
  it.each([
    ['limited-202', 202],
    ['limited-403', 403],
    ['limited-200', 429],
  ] as const)('its bot-check page (%s) says DuckDuckGo is rate-limiting, with what to do', async (mode, status) => {
    fake.setMode(mode);
    const before = fake.requests.length;
    const out = await new DdgsProvider({ DDGS_BASE_URL: fake.url }).search('x', 5, { signal: signal() });
    expect(out.success).toBe(false);
    const error = out.success ? '' : out.error;
    expect(error).toMatch(
      new RegExp(`^DuckDuckGo is rate-limiting this address \\(HTTP ${status === 429 ? 200 : status},`),
    );
    expect(error).toContain('web.search_backend');
    expect(fake.requests.length - before).toBe(1);
  });

  it('a page of another layout, an unreachable service and a timeout each say so', async () => {
    fake.setMode('other-layout');
    const p = new DdgsProvider({ DDGS_BASE_URL: fake.url });
    expect(await p.search('x', 5, { signal: signal() })).toEqual({
      success: false,
      error:
        'DuckDuckGo answered a page with neither results nor its "No results." notice: its page layout may have changed',
    });
    const closed = await startFakeDdgs();
    await closed.close(); // a port nothing listens on any more
    const gone = new DdgsProvider({ DDGS_BASE_URL: closed.url });
    expect(await gone.search('x', 5, { signal: signal() })).toEqual({
      success: false,
      error: `cannot reach DuckDuckGo at ${closed.url}: ECONNREFUSED`,
    });
    const aborted = AbortSignal.abort();
    expect(await p.search('x', 5, { signal: aborted })).toEqual({
      success: false,
      error: 'DuckDuckGo did not answer in time (or the call was interrupted)',
    });
  });
});

describe('ddgs: reading the page', () => {
  it('unwraps redirect links, keeps direct ones, refuses what is not http(s)', () => {
    expect(resultUrl('//duckduckgo.com/l/?uddg=https%3A%2F%2Fa.example%2Fx%3Fy%3D1&rut=abc')).toBe(
      'https://a.example/x?y=1',
    );
    expect(resultUrl('https://b.example/a%20b')).toBe('https://b.example/a%20b');
    expect(resultUrl('javascript:alert(1)')).toBe('');
    expect(resultUrl('//duckduckgo.com/l/?uddg=javascript%3Aalert(1)')).toBe('');
  });

  it('decodes named and numeric references and tolerates broken markup', () => {
    expect(decodeEntities('a &amp; b &lt;c&gt; &#39;d&#x27; &eacute; &#0; &#x110000;')).toBe(
      "a & b <c> 'd' &eacute; &#0; &#x110000;",
    );
    const html = `<a class="result__a" href='https://x.example/'>X &amp; <b>Y</b></a><abbr>no</abbr>
      <A CLASS="result__snippet" HREF="https://x.example/">snip</A><a class="result__a" href="https://unclosed.example/">`;
    expect(parseResults(html)).toEqual([{ title: 'X & Y', url: 'https://x.example/', description: 'snip' }]);
  });

  it('reads 2 MB pages of 40,000 links, or of links never closed, in well under a second each', () => {
    const many = '<a class="result__a" href="https://x.example/">t</a>'.repeat(40_000);
    const unclosed = '<a class="result__a" href="https://x.example/">'.repeat(45_000);
    const started = performance.now();
    expect(parseResults(many)).toHaveLength(40_000);
    expect(parseResults(unclosed)).toEqual([]);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

// The web-provider kit's base classes, envelopes and bounded concurrency.
import { checkWebSearchProvider, providerSupports } from '@hermes/plugins';
import { describe, expect, it } from 'vitest';
import {
  ApiWebProvider,
  failedPage,
  mapLimit,
  pagesAnswer,
  searchAnswer,
  type WebExtractOptions,
  WebProviderBase,
  webProviderError,
} from '../../src/index.js';

class ExtractOnly extends WebProviderBase {
  readonly name = 'extract-only';
  isAvailable(): boolean {
    return true;
  }
  override extract(urls: string[], _options: WebExtractOptions) {
    return pagesAnswer(async () => urls.map((url) => failedPage(url, 'nope')));
  }
}

class KeyedSearch extends ApiWebProvider {
  readonly name = 'keyed';
  protected readonly apiSpec = { service: 'Keyed', keyVar: 'KEYED_KEY', baseUrlVars: [], defaultBaseUrl: 'http://x/' };
  override search(query: string) {
    return searchAnswer(async () => [{ title: query, url: 'https://a.example', description: '' }]);
  }
}

describe('WebProviderBase and ApiWebProvider', () => {
  it('answer each capability flag from the method the class has, and pass the registration check', () => {
    const extractor = new ExtractOnly();
    expect([extractor.supportsSearch(), extractor.supportsExtract(), extractor.supportsCrawl()]).toEqual([
      false,
      true,
      false,
    ]);
    expect(checkWebSearchProvider(extractor, 'test')).toBe('extract-only');
    const keyed = new KeyedSearch({ KEYED_KEY: 'k' });
    expect([keyed.supportsSearch(), keyed.supportsExtract(), keyed.supportsCrawl()]).toEqual([true, false, false]);
    expect(checkWebSearchProvider(keyed, 'test')).toBe('keyed');
    expect(providerSupports(keyed, 'search')).toBe(true);
  });

  it('ApiWebProvider is available exactly when its API variables are set', () => {
    expect(new KeyedSearch({ KEYED_KEY: 'k' }).isAvailable()).toBe(true);
    expect(new KeyedSearch({ KEYED_KEY: ' ' }).isAvailable()).toBe(false);
    expect(new KeyedSearch({}).isAvailable()).toBe(false);
  });
});

describe('envelopes', () => {
  it('searchAnswer numbers hits from 1 unless a hit brings its own position, and keeps only the hit fields', async () => {
    const hits = [
      { title: 'a', url: 'https://a', description: 'A', extra: 1 },
      { title: 'b', url: 'https://b', description: 'B', position: 7 },
    ];
    expect(await searchAnswer(async () => hits)).toEqual({
      success: true,
      data: {
        web: [
          { title: 'a', url: 'https://a', description: 'A', position: 1 },
          { title: 'b', url: 'https://b', description: 'B', position: 7 },
        ],
      },
    });
  });

  it('searchAnswer and pagesAnswer turn what was thrown into the failure envelope', async () => {
    expect(await searchAnswer(() => Promise.reject(webProviderError('X_KEY is not set')))).toEqual({
      success: false,
      error: 'X_KEY is not set',
    });
    expect(await pagesAnswer(() => Promise.reject(new Error('down')))).toEqual({ success: false, error: 'down' });
    expect(await pagesAnswer(async () => [failedPage('https://a', 'HTTP 404')])).toEqual({
      success: true,
      data: [{ url: 'https://a', title: '', content: '', raw_content: '', error: 'HTTP 404' }],
    });
    expect(webProviderError('m').code).toBe('HERMES_WEB_PROVIDER');
  });
});

describe('mapLimit', () => {
  it('runs at most `limit` at a time and keeps the order of the items', async () => {
    let running = 0;
    let most = 0;
    const pending: (() => void)[] = [];
    const done = mapLimit([1, 2, 3, 4, 5], 2, async (n) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise<void>((resolve) => pending.push(resolve));
      running -= 1;
      return n * 10;
    });
    // release the waiting ones newest first, until every item has run
    for (let released = 0; released < 5; released += 1) {
      await expect.poll(() => pending.length).toBeGreaterThan(0);
      expect(running).toBeLessThanOrEqual(2);
      pending.pop()?.();
    }
    expect(await done).toEqual([10, 20, 30, 40, 50]);
    expect(most).toBe(2);
  });

  it('rejects with the first rejection; an empty list resolves at once', async () => {
    await expect(mapLimit([1, 2], 3, async (n) => (n === 2 ? Promise.reject(new Error('two')) : n))).rejects.toThrow(
      'two',
    );
    expect(await mapLimit([], 3, async () => 1)).toEqual([]);
  });
});

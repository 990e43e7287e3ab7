/**
 * The shape check of `ctx.registerWebSearchProvider(provider)`: a provider from plain JavaScript
 * that lacks `isAvailable()` or the method of a capability it declares fails its plugin's
 * register() with a message naming the member, instead of breaking a tool call later.
 */
import type { WebCapability, WebSearchProvider } from '@hermes/protocol';

/** Provider names: what web.*_backend config keys take. */
export const WEB_PROVIDER_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

const FLAG: Record<WebCapability, 'supportsSearch' | 'supportsExtract' | 'supportsCrawl'> = {
  search: 'supportsSearch',
  extract: 'supportsExtract',
  crawl: 'supportsCrawl',
};

/** The seed's defaults: search on, extract and crawl off. */
const FLAG_DEFAULT: Record<WebCapability, boolean> = { search: true, extract: false, crawl: false };

/** Reads a capability flag with the seed's default; a throwing flag reads as false. */
export function providerSupports(provider: WebSearchProvider, capability: WebCapability): boolean {
  const flag = provider[FLAG[capability]];
  if (typeof flag !== 'function') return FLAG_DEFAULT[capability] && typeof provider[capability] === 'function';
  try {
    return flag.call(provider) === true && typeof provider[capability] === 'function';
  } catch {
    // a flag that throws is a broken capability: the router skips it and says so when asked by name
    return false;
  }
}

/** Checks a provider object at registration; returns its name or throws a TypeError naming the problem. */
export function checkWebSearchProvider(provider: unknown, plugin: string): string {
  const fail = (problem: string): never => {
    throw new TypeError(`plugin ${plugin}: registerWebSearchProvider: ${problem}`);
  };
  if (typeof provider !== 'object' || provider === null) return fail('expected a provider object');
  const p = provider as Partial<Record<string, unknown>>;
  const name = p.name;
  if (typeof name !== 'string' || !WEB_PROVIDER_NAME.test(name)) {
    return fail(`name must be lowercase letters, digits, "-" or "_" (got ${JSON.stringify(name)})`);
  }
  if (p.displayName !== undefined && typeof p.displayName !== 'string') fail(`${name}: displayName must be a string`);
  if (typeof p.isAvailable !== 'function') fail(`${name}: isAvailable() is required (a cheap check, no network)`);
  const methods = (['search', 'extract', 'crawl'] as const).filter((c) => typeof p[c] === 'function');
  if (methods.length === 0) fail(`${name}: implement at least one of search(), extract(), crawl()`);
  for (const capability of ['search', 'extract', 'crawl'] as const) {
    const flag = p[FLAG[capability]];
    if (flag !== undefined && typeof flag !== 'function') fail(`${name}: ${FLAG[capability]} must be a method`);
    if (typeof flag !== 'function') {
      const has = typeof p[capability] === 'function';
      if (FLAG_DEFAULT[capability] && !has) {
        fail(
          `${name}: supportsSearch() defaults to true, so search() is required (or add supportsSearch() returning false)`,
        );
      }
      if (!FLAG_DEFAULT[capability] && has) {
        fail(`${name}: ${capability}() is implemented but ${FLAG[capability]}() is missing (it defaults to false)`);
      }
      continue;
    }
    let declared: unknown;
    try {
      declared = (flag as () => unknown).call(provider);
    } catch (err) {
      fail(`${name}: ${FLAG[capability]}() threw: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (declared === true && typeof p[capability] !== 'function') {
      fail(`${name}: ${FLAG[capability]}() is true but there is no ${capability}() method`);
    }
  }
  return name;
}

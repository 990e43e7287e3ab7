/**
 * The shape check of `ctx.registerImageGenProvider(provider)`: a provider without a valid name,
 * `isAvailable()` or `generate()` fails its plugin's register() with a message naming the member.
 */
import { WEB_PROVIDER_NAME } from './web-provider-check.js';

/** Checks a provider object at registration; returns its name or throws a TypeError naming the problem. */
export function checkImageGenProvider(provider: unknown, plugin: string): string {
  const fail = (problem: string): never => {
    throw new TypeError(`plugin ${plugin}: registerImageGenProvider: ${problem}`);
  };
  if (typeof provider !== 'object' || provider === null) return fail('expected a provider object');
  const p = provider as Partial<Record<string, unknown>>;
  if (typeof p.name !== 'string' || !WEB_PROVIDER_NAME.test(p.name)) {
    return fail('name: expected a lower-case name (letters, digits, "-" and "_"), e.g. "openai"');
  }
  if (typeof p.isAvailable !== 'function') return fail(`provider "${p.name}" has no isAvailable() method`);
  if (typeof p.generate !== 'function') return fail(`provider "${p.name}" has no generate(request) method`);
  return p.name;
}

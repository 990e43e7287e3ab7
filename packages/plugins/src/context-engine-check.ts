/**
 * The shape check of `ctx.registerContextEngine(engine)`: an engine without a valid name or
 * `compress()` fails its plugin's register() with a message naming the member.
 */
import { WEB_PROVIDER_NAME } from './web-provider-check.js';

/** Checks an engine object at registration; returns its name or throws a TypeError naming the problem. */
export function checkContextEngine(engine: unknown, plugin: string): string {
  const fail = (problem: string): never => {
    throw new TypeError(`plugin ${plugin}: registerContextEngine: ${problem}`);
  };
  if (typeof engine !== 'object' || engine === null) return fail('expected an engine object');
  const e = engine as Partial<Record<string, unknown>>;
  if (typeof e.name !== 'string' || !WEB_PROVIDER_NAME.test(e.name)) {
    return fail('name: expected a lower-case name (letters, digits, "-" and "_"), e.g. "summarizer"');
  }
  if (typeof e.compress !== 'function') return fail(`engine "${e.name}" has no compress(input) method`);
  return e.name;
}

/**
 * The shape check of `ctx.registerTtsProvider(provider)` and `ctx.registerVideoGenProvider(provider)`:
 * a provider without a valid name, `isAvailable()` or its work method fails its plugin's register()
 * with a message naming the registration and the member.
 */
import { WEB_PROVIDER_NAME } from './web-provider-check.js';

/** Checks a provider object with `name`, `isAvailable()` and `method`; returns its name or throws a TypeError. */
function checkNamedProvider(provider: unknown, plugin: string, register: string, method: string): string {
  const fail = (problem: string): never => {
    throw new TypeError(`plugin ${plugin}: ${register}: ${problem}`);
  };
  if (typeof provider !== 'object' || provider === null) return fail('expected a provider object');
  const p = provider as Partial<Record<string, unknown>>;
  if (typeof p.name !== 'string' || !WEB_PROVIDER_NAME.test(p.name)) {
    return fail('name: expected a lower-case name (letters, digits, "-" and "_"), e.g. "openai"');
  }
  if (typeof p.isAvailable !== 'function') return fail(`provider "${p.name}" has no isAvailable() method`);
  if (typeof p[method] !== 'function') return fail(`provider "${p.name}" has no ${method}(request) method`);
  return p.name;
}

/** `registerTtsProvider`: `{name, isAvailable, synthesize}`. */
export function checkTtsProvider(provider: unknown, plugin: string): string {
  return checkNamedProvider(provider, plugin, 'registerTtsProvider', 'synthesize');
}

/** `registerVideoGenProvider`: `{name, isAvailable, generate}`. */
export function checkVideoGenProvider(provider: unknown, plugin: string): string {
  return checkNamedProvider(provider, plugin, 'registerVideoGenProvider', 'generate');
}

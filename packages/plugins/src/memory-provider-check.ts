/**
 * The shape check of `ctx.registerMemoryProvider(provider)`: a provider without a valid name or
 * `systemPromptBlock()`, with an optional member that is not a function, or with a malformed tool
 * fails its plugin's register() with a message naming the member.
 */
import { WEB_PROVIDER_NAME } from './web-provider-check.js';

const OPTIONAL_METHODS = ['prefetch', 'sync', 'onSessionEnd'] as const;

/** Checks a provider object at registration; returns its name or throws a TypeError naming the problem. */
export function checkMemoryProvider(provider: unknown, plugin: string): string {
  const fail = (problem: string): never => {
    throw new TypeError(`plugin ${plugin}: registerMemoryProvider: ${problem}`);
  };
  if (typeof provider !== 'object' || provider === null) return fail('expected a provider object');
  const p = provider as Partial<Record<string, unknown>>;
  if (typeof p.name !== 'string' || !WEB_PROVIDER_NAME.test(p.name)) {
    return fail('name: expected a lower-case name (letters, digits, "-" and "_"), e.g. "notes"');
  }
  if (p.name === 'builtin') return fail('name "builtin" is reserved for the built-in provider');
  if (typeof p.systemPromptBlock !== 'function') {
    return fail(`provider "${p.name}" has no systemPromptBlock(session) method`);
  }
  for (const method of OPTIONAL_METHODS) {
    if (p[method] !== undefined && typeof p[method] !== 'function') {
      return fail(`provider "${p.name}": ${method} must be a function when given`);
    }
  }
  if (p.tools !== undefined) {
    if (!Array.isArray(p.tools)) return fail(`provider "${p.name}": tools must be an array`);
    for (const [i, tool] of (p.tools as unknown[]).entries()) {
      const t = (typeof tool === 'object' && tool !== null ? tool : {}) as Partial<Record<string, unknown>>;
      if (typeof t.name !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(t.name)) {
        return fail(`provider "${p.name}": tools[${i}] needs a name of 1-64 letters, digits, "_" or "-"`);
      }
      if (typeof t.schema !== 'object' || t.schema === null) {
        return fail(`provider "${p.name}": tool "${t.name}" needs a schema {name, description, parameters}`);
      }
      if (typeof t.handler !== 'function') return fail(`provider "${p.name}": tool "${t.name}" has no handler`);
    }
  }
  return p.name;
}

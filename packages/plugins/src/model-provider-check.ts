/**
 * The shape check of `ctx.registerModelProvider(profile)`: a profile with a bad name, base URL,
 * key variable, default model, context length or headers fails its plugin's register() with a
 * message naming the field, instead of breaking a turn later. Returns a frozen copy.
 */
import type { ModelProviderProfile } from '@hermes/protocol';
import { WEB_PROVIDER_NAME } from './web-provider-check.js';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Checks a profile at registration; returns a frozen copy or throws a TypeError naming the problem. */
export function checkModelProvider(profile: unknown, plugin: string): Readonly<ModelProviderProfile> {
  const fail = (problem: string): never => {
    throw new TypeError(`plugin ${plugin}: registerModelProvider: ${problem}`);
  };
  if (typeof profile !== 'object' || profile === null) return fail('expected a profile object');
  const p = profile as Partial<Record<keyof ModelProviderProfile, unknown>>;
  if (typeof p.name !== 'string' || !WEB_PROVIDER_NAME.test(p.name)) {
    return fail('name: expected a lower-case name (letters, digits, "-" and "_"), e.g. "openrouter"');
  }
  const where = `profile "${p.name}"`;
  if (typeof p.baseUrl !== 'string' || (p.baseUrl !== '' && !/^https?:\/\/[^\s]+$/.test(p.baseUrl))) {
    return fail(`${where}: baseUrl: expected an http:// or https:// URL, e.g. "https://api.openai.com/v1"`);
  }
  if (typeof p.apiKeyEnv !== 'string' || (p.apiKeyEnv !== '' && !ENV_NAME.test(p.apiKeyEnv))) {
    return fail(`${where}: apiKeyEnv: expected an environment variable name (or "" for no key), e.g. "OPENAI_API_KEY"`);
  }
  if (typeof p.defaultModel !== 'string') return fail(`${where}: defaultModel: expected a model id string`);
  if (p.contextLength !== undefined && (!Number.isInteger(p.contextLength) || (p.contextLength as number) < 1)) {
    return fail(`${where}: contextLength: expected a whole number of tokens above 0`);
  }
  let headers: Record<string, string> | undefined;
  if (p.headers !== undefined) {
    if (typeof p.headers !== 'object' || p.headers === null) return fail(`${where}: headers: expected an object`);
    headers = {};
    for (const [k, v] of Object.entries(p.headers)) {
      if (typeof v !== 'string') return fail(`${where}: headers.${k}: expected a string`);
      if (/^authorization$/i.test(k)) return fail(`${where}: headers.${k}: the key goes in apiKeyEnv, not a header`);
      headers[k] = v;
    }
  }
  return Object.freeze({
    name: p.name,
    baseUrl: p.baseUrl,
    apiKeyEnv: p.apiKeyEnv,
    defaultModel: p.defaultModel,
    ...(p.contextLength !== undefined ? { contextLength: p.contextLength as number } : {}),
    ...(headers ? { headers: Object.freeze(headers) } : {}),
  });
}

/**
 * One provider's JSON API: the key and the base URL read from the environment at each call, the
 * headers that carry the key, and the request itself (`requestJson`).
 */
import { webProviderError } from './envelopes.js';
import { apiUrl, asObject, requestJson, type WebApiRequest } from './web-api.js';

/** The environment a provider reads: `process.env`, or a test's own. */
export type ProviderEnv = Readonly<Record<string, string | undefined>>;

/** Where a provider's API is and how it is authorized. */
export interface WebApiSpec {
  /** names the service in every error: `Exa answered HTTP 401: ...` */
  service: string;
  /** the variable holding the API key; none for a service without one (SearXNG) */
  keyVar?: string;
  /** the variables that may hold the base URL, the first one set wins */
  baseUrlVars: readonly string[];
  /** the base URL when none of `baseUrlVars` is set; none: the first of them is required */
  defaultBaseUrl?: string;
  /** the headers that carry the key (default: none) */
  auth?: (key: string) => Record<string, string>;
}

/** `Authorization: Bearer <key>`, the most common `auth`. */
export function bearerAuth(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}` };
}

/** `auth` for a service that takes the key in a header of its own (`x-api-key: <key>`). */
export function headerAuth(header: string): (key: string) => Record<string, string> {
  return (key) => ({ [header]: key });
}

/** The trimmed value of the first of `names` that is set and not blank. */
function firstSet(env: ProviderEnv, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return value;
  }
  return undefined;
}

/** A provider's API client; cheap to build, it reads nothing until asked. */
export class WebApiClient {
  readonly service: string;
  readonly #spec: WebApiSpec;
  readonly #env: ProviderEnv;

  constructor(spec: WebApiSpec, env: ProviderEnv = process.env) {
    this.service = spec.service;
    this.#spec = spec;
    this.#env = env;
  }

  /** The name of the first variable the API needs that is unset or blank, if any: no network. */
  missingVariable(): string | undefined {
    const { keyVar, baseUrlVars, defaultBaseUrl } = this.#spec;
    if (keyVar !== undefined && firstSet(this.#env, [keyVar]) === undefined) return keyVar;
    if (defaultBaseUrl === undefined && firstSet(this.#env, baseUrlVars) === undefined) return baseUrlVars[0];
    return undefined;
  }

  /** True when every variable the API needs is set: what a provider's `isAvailable()` answers. */
  isConfigured(): boolean {
    return this.missingVariable() === undefined;
  }

  /**
   * One request to `path` under the base URL (a URL object is used as it is) with the key's headers;
   * resolves with the parsed JSON. Rejects with a `HermesError` naming the variable that is not set,
   * or as `requestJson` does.
   */
  async request(path: string | URL, request: WebApiRequest = {}): Promise<unknown> {
    const missing = this.missingVariable();
    if (missing !== undefined) throw webProviderError(`${missing} is not set`);
    const { keyVar, baseUrlVars, defaultBaseUrl, auth } = this.#spec;
    const key = keyVar === undefined ? undefined : firstSet(this.#env, [keyVar]);
    const base = firstSet(this.#env, baseUrlVars) ?? defaultBaseUrl ?? '';
    const url = path instanceof URL ? path : apiUrl(base, path);
    const headers = { ...request.headers, ...(key !== undefined && auth ? auth(key) : {}) };
    return requestJson(this.service, url, { ...request, headers });
  }

  /** POSTs `body` as JSON to `path` and reads the answer as an object (`{}` when it is not one). */
  async post(path: string, body: Record<string, unknown>, signal: AbortSignal): Promise<Record<string, unknown>> {
    return asObject(await this.request(path, { method: 'POST', body, signal }));
  }
}

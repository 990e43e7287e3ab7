// The web-provider kit's API client: which variables it needs, where it sends, which headers carry the key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpFake, sendJson, startHttpFake } from '../../../../test/fakes/web/http-fake.js';
import {
  bearerAuth,
  ERROR_CODES,
  HermesError,
  headerAuth,
  WebApiClient,
  WebApiError,
  type WebApiSpec,
} from '../../src/index.js';

const SPEC: WebApiSpec = {
  service: 'Fake API',
  keyVar: 'FAKE_API_KEY',
  baseUrlVars: ['FAKE_BASE_URL', 'FAKE_API_URL'],
  defaultBaseUrl: 'http://127.0.0.1:9/',
  auth: bearerAuth,
};

let fake: HttpFake;
beforeAll(async () => {
  fake = await startHttpFake((req, res) =>
    req.path.endsWith('/broken')
      ? sendJson(res, 500, { error: 'boom' })
      : sendJson(res, 200, { echo: req.body ?? null }),
  );
});
afterAll(() => fake.close());

describe('WebApiClient', () => {
  it('needs the key, and the base URL only when there is no default; blank counts as unset', () => {
    expect(new WebApiClient(SPEC, {}).missingVariable()).toBe('FAKE_API_KEY');
    expect(new WebApiClient(SPEC, { FAKE_API_KEY: '  ' }).isConfigured()).toBe(false);
    expect(new WebApiClient(SPEC, { FAKE_API_KEY: 'k' }).isConfigured()).toBe(true);
    const selfHosted: WebApiSpec = { service: 'Self', baseUrlVars: ['SELF_URL'] };
    expect(new WebApiClient(selfHosted, {}).missingVariable()).toBe('SELF_URL');
    expect(new WebApiClient(selfHosted, { SELF_URL: 'http://127.0.0.1:1' }).isConfigured()).toBe(true);
  });

  it('a missing variable rejects the call with a coded error naming it, before any request', async () => {
    const before = fake.requests.length;
    const err = await new WebApiClient(SPEC, { FAKE_BASE_URL: fake.url })
      .post('x', {}, AbortSignal.timeout(1_000))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HermesError);
    expect(err).toMatchObject({ code: ERROR_CODES.WEB_PROVIDER, message: 'FAKE_API_KEY is not set' });
    expect(fake.requests.length).toBe(before);
  });

  it('POSTs JSON under the first base URL set (its path kept), the key in the auth headers, read at each call', async () => {
    const env: Record<string, string | undefined> = { FAKE_API_KEY: ' k1 ', FAKE_API_URL: `${fake.url}/v9` };
    const api = new WebApiClient(SPEC, env);
    expect(await api.post('search', { q: 'x' }, AbortSignal.timeout(2_000))).toEqual({ echo: { q: 'x' } });
    expect(fake.requests.at(-1)).toMatchObject({ method: 'POST', path: '/v9/search', body: { q: 'x' } });
    expect(fake.requests.at(-1)?.headers.authorization).toBe('Bearer k1');

    env.FAKE_API_KEY = 'k2';
    env.FAKE_BASE_URL = `${fake.url}/v1/`;
    await api.request('items', { query: { page: 2 }, headers: { 'x-extra': 'yes' } });
    expect(fake.requests.at(-1)).toMatchObject({ method: 'GET', path: '/v1/items' });
    expect(fake.requests.at(-1)?.query.get('page')).toBe('2');
    expect(fake.requests.at(-1)?.headers).toMatchObject({ authorization: 'Bearer k2', 'x-extra': 'yes' });
  });

  it('headerAuth sends the key in the header it names, and no Authorization header', async () => {
    const api = new WebApiClient(
      { ...SPEC, auth: headerAuth('x-api-key') },
      { FAKE_API_KEY: 'k3', FAKE_BASE_URL: fake.url },
    );
    await api.post('search', {}, AbortSignal.timeout(2_000));
    expect(fake.requests.at(-1)?.headers['x-api-key']).toBe('k3');
    expect(fake.requests.at(-1)?.headers.authorization).toBeUndefined();
  });

  it('a URL object is used as it is; HTTP errors reject as requestJson does, naming the service', async () => {
    const api = new WebApiClient(SPEC, { FAKE_API_KEY: 'k' });
    await api.request(new URL(`${fake.url}/elsewhere`));
    expect(fake.requests.at(-1)?.path).toBe('/elsewhere');
    const err = await api.request(new URL(`${fake.url}/broken`)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WebApiError);
    expect(err).toMatchObject({ status: 500, message: 'Fake API answered HTTP 500: boom' });
  });
});

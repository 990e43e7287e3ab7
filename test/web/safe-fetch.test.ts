// The guarded fetch: private addresses refused after DNS and after every redirect (unless allowed), DNS rebinding
// caught at connect time, and every fetch bounded in time and size. The fake network maps a pretend-public
// address onto the 127.0.0.1 site, so redirects from a "public" page can be tested without leaving loopback.
import { createSafeFetch, type Resolver, type SafeFetchOptions } from '@hermes/agent';
import { ERROR_CODES, HermesError } from '@hermes/protocol';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeSite, startFakeSite } from '../fakes/web/site-server.js';

/** A pretend-public address (TEST-NET would be refused, so a real public one that is never dialled). */
const PUBLIC_IP = '93.184.216.34';

let site: FakeSite;
beforeAll(async () => {
  site = await startFakeSite();
});
afterAll(() => site.close());
beforeEach(() => {
  site.hits.length = 0;
});

/** A fake DNS: `public.test` is public, `intranet.test` private; nothing else resolves. */
const fakeDns: Resolver = async (host) => {
  if (host === 'public.test') return [{ address: PUBLIC_IP, family: 4 }];
  if (host === 'intranet.test') return [{ address: '10.0.0.7', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
};

function guarded(options: Partial<SafeFetchOptions> = {}) {
  return createSafeFetch({
    allowPrivate: false,
    timeoutMs: 5_000,
    maxBytes: 1_000_000,
    resolve: fakeDns,
    // the fake network: the pretend-public address is served by the loopback site
    dial: (address) => (address === PUBLIC_IP ? '127.0.0.1' : address),
    ...options,
  });
}

async function refusal(promise: Promise<unknown>): Promise<HermesError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(HermesError);
  return err as HermesError;
}

describe('createSafeFetch', () => {
  it('fetches a public page through the fake network', async () => {
    const page = await guarded()(`http://public.test:${site.port}/article`);
    expect(page).toMatchObject({ status: 200, contentType: 'text/html', truncated: false, redirects: [] });
    expect(page.text).toContain('Solar power in 2025');
  });

  it('refuses a loopback literal by default and names the setting, without connecting', async () => {
    const err = await refusal(guarded()(`${site.url}/secret`));
    expect(err.code).toBe(ERROR_CODES.WEB_URL_REFUSED);
    expect(err.message).toMatch(/127\.0\.0\.1 is a loopback address/);
    expect(err.message).toContain('security.allow_private_urls');
    expect(site.hits).toEqual([]);
  });

  it('refuses a name that resolves to a private address (the OS resolver: localhost)', async () => {
    const err = await refusal(
      createSafeFetch({ allowPrivate: false, timeoutMs: 5_000, maxBytes: 1000 })(
        `http://localhost:${site.port}/secret`,
      ),
    );
    expect(err.code).toBe(ERROR_CODES.WEB_URL_REFUSED);
    expect(err.message).toMatch(/localhost resolves to (127\.0\.0\.1|::1)/);
    expect(site.hits).toEqual([]);
  });

  it('refuses a redirect to a loopback address: the first hop is served, the target never', async () => {
    const target = encodeURIComponent(`http://127.0.0.1:${site.port}/secret`);
    const err = await refusal(guarded()(`http://public.test:${site.port}/redirect?to=${target}`));
    expect(err.code).toBe(ERROR_CODES.WEB_URL_REFUSED);
    expect(site.hits).toEqual(['/redirect']);
  });

  it('refuses a redirect to a name that resolves privately', async () => {
    const target = encodeURIComponent(`http://intranet.test:${site.port}/secret`);
    const err = await refusal(guarded()(`http://public.test:${site.port}/redirect?to=${target}`));
    expect(err.message).toMatch(/intranet\.test resolves to 10\.0\.0\.7 is a private address/);
    expect(site.hits).toEqual(['/redirect']);
  });

  it('catches DNS rebinding: the address actually dialled is vetted again', async () => {
    let calls = 0;
    const rebinding: Resolver = async () => [{ address: calls++ === 0 ? PUBLIC_IP : '127.0.0.1', family: 4 }];
    const err = await refusal(guarded({ resolve: rebinding })(`http://rebind.test:${site.port}/secret`));
    expect(err.code).toBe(ERROR_CODES.WEB_URL_REFUSED);
    expect(site.hits).toEqual([]);
  });

  it('with allowPrivate, loopback and redirects to it are fetched', async () => {
    const allow = guarded({ allowPrivate: true });
    expect((await allow(`${site.url}/secret`)).text).toContain('top secret internal data');
    const target = encodeURIComponent(`http://127.0.0.1:${site.port}/secret`);
    const page = await allow(`http://public.test:${site.port}/redirect?to=${target}`);
    expect(page.url).toBe(`http://127.0.0.1:${site.port}/secret`);
    expect(page.redirects).toEqual([`http://public.test:${site.port}/redirect?to=${target}`]);
  });

  it('only http and https', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://public.test/x', 'gopher://public.test/', 'not a url']) {
      expect((await refusal(guarded()(url))).code).toBe(ERROR_CODES.WEB_URL_REFUSED);
    }
    const to = encodeURIComponent('file:///etc/passwd');
    expect((await refusal(guarded()(`http://public.test:${site.port}/redirect?to=${to}`))).message).toMatch(
      /only http and https/,
    );
  });

  it('is bounded: time, redirects and size', async () => {
    const slow = await refusal(guarded({ timeoutMs: 150 })(`http://public.test:${site.port}/slow?ms=3000`));
    expect(slow.code).toBe(ERROR_CODES.WEB_FETCH);
    expect(slow.message).toMatch(/did not answer within 0\.15 s/);
    const loop = await refusal(guarded()(`http://public.test:${site.port}/loop`));
    expect(loop.message).toMatch(/too many redirects/);
    const big = await guarded({ maxBytes: 10_000 })(`http://public.test:${site.port}/big`);
    expect(big.truncated).toBe(true);
    expect(Buffer.byteLength(big.text)).toBeLessThanOrEqual(10_000);
  });

  it('decodes gzip and legacy charsets, and does not read binary bodies', async () => {
    const f = guarded();
    expect((await f(`http://public.test:${site.port}/gzip`)).text).toContain('compressed body');
    expect((await f(`http://public.test:${site.port}/latin1`)).text).toContain('Crème brûlée');
    expect((await f(`http://public.test:${site.port}/meta-charset`)).text).toContain('Price: £ 5');
    const pdf = await f(`http://public.test:${site.port}/files/report.pdf`);
    expect(pdf).toMatchObject({ contentType: 'application/pdf', text: '' });
    expect((await f(`http://public.test:${site.port}/nope`)).status).toBe(404);
  });

  it('an unresolvable name is a fetch error, and an aborted signal interrupts', async () => {
    expect((await refusal(guarded()('http://nowhere.test/'))).message).toMatch(
      /cannot resolve nowhere\.test: ENOTFOUND/,
    );
    const controller = new AbortController();
    const pending = guarded()(`http://public.test:${site.port}/slow?ms=3000`, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    expect((await refusal(pending)).message).toMatch(/interrupted/);
  });
});

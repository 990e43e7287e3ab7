import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { callWithDeadline, DeadlineError } from '@hermes/agent';
import { requestJson, WebApiError } from '@hermes/plugin-sdk';
import { ERROR_CODES, HermesError } from '@hermes/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const status = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('status') ?? '200');
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(status === 200 ? { ok: true } : { error: { message: `failed with ${status}` } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function rejection(promise: Promise<unknown>): Promise<WebApiError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof WebApiError)) throw new Error(`expected a WebApiError, got ${String(err)}`);
  return err;
}

describe('web API errors are HermesErrors coded HERMES_WEB_PROVIDER', () => {
  it.each([
    [400, false],
    [401, false],
    [429, true],
    [503, true],
  ])('HTTP %i: names the service and status; retryable %s', async (status, retryable) => {
    const err = await rejection(requestJson('Acme', base, { query: { status } }));
    expect(err).toBeInstanceOf(HermesError);
    expect(err.code).toBe(ERROR_CODES.WEB_PROVIDER);
    expect(err.status).toBe(status);
    expect(err.retryable).toBe(retryable);
    expect(err.message).toBe(`Acme answered HTTP ${status}: failed with ${status}`);
  });

  it('no answer at all (connection refused): status null, retryable, the message names where', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const err = await rejection(requestJson('Acme', `http://127.0.0.1:${port}/`));
    expect(err.code).toBe(ERROR_CODES.WEB_PROVIDER);
    expect(err.status).toBeNull();
    expect(err.retryable).toBe(true);
    expect(err.message).toMatch(new RegExp(`cannot reach Acme at http://127\\.0\\.0\\.1:${port}: ECONNREFUSED`));
  });
});

describe('a provider call past its deadline', () => {
  it('times out as HERMES_WEB_PROVIDER and is interrupted as HERMES_INTERRUPTED', async () => {
    const never = () => new Promise<never>(() => undefined);
    const late = await callWithDeadline(never, 10).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(DeadlineError);
    expect(late).toMatchObject({ code: ERROR_CODES.WEB_PROVIDER, reason: 'timeout', retryable: true });
    const stop = new AbortController();
    stop.abort();
    const cut = await callWithDeadline(never, 60_000, stop.signal).catch((e: unknown) => e);
    expect(cut).toBeInstanceOf(HermesError);
    expect(cut).toMatchObject({ code: ERROR_CODES.INTERRUPTED, reason: 'aborted', retryable: false });
  });
});

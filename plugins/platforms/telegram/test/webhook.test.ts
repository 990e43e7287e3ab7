// Webhook intake: the route on the gateway's server, the secret check, setWebhook at start.
import type { RouteRequest } from '@hermes/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_WEBHOOK_PATH } from '../settings.js';
import { SECRET_HEADER } from '../webhook.js';
import { eventually, type Harness, type RouteHandler, recordingSink, startHarness } from './harness.js';

const SECRET = 'webhook-secret-123';
const SETTINGS = { mode: 'webhook', webhook_url: 'https://hermes.example/telegram/webhook', webhook_secret: SECRET };

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(() => h.close());

function request(body: unknown, headers: RouteRequest['headers'] = {}): RouteRequest {
  return { headers, body, rawBody: JSON.stringify(body) };
}

function route(path = DEFAULT_WEBHOOK_PATH): RouteHandler {
  const handler = h.routes.get(`POST ${path}`);
  if (handler === undefined) throw new Error(`no route POST ${path}`);
  return handler;
}

describe('telegram webhook', () => {
  it('adds its route at creation, answering 503 until started', async () => {
    h.adapter({ settings: SETTINGS });
    expect([...h.routes.keys()]).toEqual(['POST /telegram/webhook']);
    const update = h.fake.webhookUpdate({ chatId: 42, userId: 42, text: 'early' });
    expect((await route()(request(update, { [SECRET_HEADER]: SECRET }))).status).toBe(503);
    expect((await route()(request(update, {}))).status).toBe(401);
  });

  it('registers the webhook (url + secret) at start, and never polls', async () => {
    const adapter = h.adapter({ settings: SETTINGS });
    await adapter.start(recordingSink().sink);
    expect(adapter.status().state).toBe('connected');
    expect([...h.routes.keys()]).toEqual(['POST /telegram/webhook']);
    expect(h.fake.webhook()).toEqual({ url: SETTINGS.webhook_url, secret_token: SECRET });
    const setWebhook = h.fake.calls.find((call) => call.method === 'setWebhook');
    expect(setWebhook?.body.allowed_updates).toEqual(['message', 'callback_query']);
    expect(h.fake.calls.some((call) => call.method === 'getUpdates')).toBe(false);
  });

  it('delivers an update carrying the right secret, answering 200 only after accept', async () => {
    const recorder = recordingSink();
    let acceptedBeforeAnswer = false;
    recorder.onAccept(() => {
      acceptedBeforeAnswer = true;
    });
    const adapter = h.adapter({ settings: SETTINGS });
    await adapter.start(recorder.sink);
    const update = h.fake.webhookUpdate({ chatId: 42, userId: 42, text: 'via webhook' });
    const response = await route()(request(update, { [SECRET_HEADER]: SECRET }));
    expect(acceptedBeforeAnswer).toBe(true);
    expect(response.status).toBe(200);
    expect(recorder.events.map((event) => event.text)).toEqual(['via webhook']);
  });

  it.each([
    ['a wrong secret', { [SECRET_HEADER]: 'nope' }],
    ['a missing secret', {}],
    ['the secret with different length', { [SECRET_HEADER]: `${SECRET}x` }],
  ])('refuses %s with 401 and processes nothing', async (_, headers) => {
    const recorder = recordingSink();
    const adapter = h.adapter({ settings: SETTINGS });
    await adapter.start(recorder.sink);
    const update = h.fake.webhookUpdate({ chatId: 42, userId: 42, text: 'forged' });
    const response = await route()(request(update, headers));
    expect(response.status).toBe(401);
    expect(recorder.attempts).toHaveLength(0);
  });

  it('answers 500 when the sink fails, so Telegram retries the update', async () => {
    const recorder = recordingSink();
    recorder.failNext(1);
    const adapter = h.adapter({ settings: SETTINGS });
    await adapter.start(recorder.sink);
    const update = h.fake.webhookUpdate({ chatId: 42, userId: 42, text: 'retry me' });
    expect((await route()(request(update, { [SECRET_HEADER]: SECRET }))).status).toBe(500);
    expect((await route()(request(update, { [SECRET_HEADER]: SECRET }))).status).toBe(200);
    expect(recorder.events).toHaveLength(1);
  });

  it('answers 400 to a body that is not an update, reading rawBody when body is unparsed', async () => {
    const adapter = h.adapter({ settings: SETTINGS });
    await adapter.start(recordingSink().sink);
    const headers = { [SECRET_HEADER]: SECRET };
    expect((await route()({ headers, body: undefined, rawBody: '{"hello":1}' })).status).toBe(400);
    const update = h.fake.webhookUpdate({ chatId: 1, userId: 1, text: 'raw' });
    expect((await route()({ headers, body: undefined, rawBody: JSON.stringify(update) })).status).toBe(200);
  });

  it('answers 503 after stop and delivers nothing', async () => {
    const recorder = recordingSink();
    const adapter = h.adapter({ settings: SETTINGS });
    await adapter.start(recorder.sink);
    await adapter.stop();
    const update = h.fake.webhookUpdate({ chatId: 42, userId: 42, text: 'late' });
    expect((await route()(request(update, { [SECRET_HEADER]: SECRET }))).status).toBe(503);
    expect(recorder.attempts).toHaveLength(0);
  });

  it('uses a custom path and skips setWebhook without a webhook_url', async () => {
    const recorder = recordingSink();
    const adapter = h.adapter({ settings: { mode: 'webhook', webhook_path: '/hooks/tg', webhook_secret: SECRET } });
    await adapter.start(recorder.sink);
    expect(h.fake.calls.map((call) => call.method)).toEqual(['getMe']);
    const update = h.fake.webhookUpdate({ chatId: 42, userId: 42, text: 'custom path' });
    expect((await route('/hooks/tg')(request(update, { [SECRET_HEADER]: SECRET }))).status).toBe(200);
    expect(recorder.events).toHaveLength(1);
  });

  it('refuses webhook mode with neither webhook_url nor webhook_secret (no open door)', () => {
    expect(() => h.adapter({ settings: { mode: 'webhook', webhook_path: '/hooks/tg' } })).toThrow(
      /webhook mode needs webhook_url .* or webhook_secret/,
    );
    expect(h.routes.size).toBe(0);
  });

  it('retries a failing setWebhook with backoff before it is connected', async () => {
    h.fake.failNext('setWebhook', { status: 500 });
    const sleeps: number[] = [];
    const adapter = h.adapter({ settings: SETTINGS, deps: { sleep: async (ms) => void sleeps.push(ms) } });
    await adapter.start(recordingSink().sink);
    expect(adapter.status().state).toBe('error');
    await eventually(() => adapter.status().state === 'connected');
    expect(sleeps).toHaveLength(1);
    expect(h.fake.webhook()?.url).toBe(SETTINGS.webhook_url);
  });
});

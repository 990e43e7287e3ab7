// The WhatsApp adapter on the shared adapter harness (test/contract/adapter-harness.ts): the fake
// Graph API, an in-memory PlatformContext, the recorders, and webhook requests signed as Meta signs them.
import type { AdapterDeps } from '@hermes/plugin-sdk';
import type { RouteRequest } from '@hermes/protocol';
import { type AdapterHarness, adapterHarness, type RouteHandler } from '../../../../test/contract/adapter-harness.js';
import { type FakeWhatsApp, signWebhook, startFakeWhatsApp } from '../../../../test/fakes/whatsapp-server.js';
import { createWhatsAppAdapter } from '../adapter.js';

export * from '../../../../test/contract/recorders.js';

export const VERIFY_TOKEN = 'verify-me-7c2f0b';
export const WEBHOOK_PATH = '/whatsapp/webhook';
export const ALICE = { from: '15551230001', name: 'Alice' };

export interface Harness extends AdapterHarness<FakeWhatsApp, AdapterDeps> {
  /** the POST events handler */
  events(): RouteHandler;
  /** the GET verification handler */
  verification(): RouteHandler;
  /** a RouteRequest as the gateway's server hands it over: signed with the app secret unless `signature` is given */
  signed(payload: unknown, signature?: string | null): RouteRequest;
}

/** Starts a fake Graph API and hands out adapters wired to it. */
export async function startHarness(): Promise<Harness> {
  const fake = await startFakeWhatsApp();
  const harness = adapterHarness({
    platform: 'whatsapp',
    fake,
    env: {
      WHATSAPP_ACCESS_TOKEN: fake.token,
      WHATSAPP_PHONE_NUMBER_ID: fake.phoneNumberId,
      WHATSAPP_APP_SECRET: fake.appSecret,
      WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
    },
    settings: { api_url: fake.apiUrl, request_timeout_ms: 5_000 },
    create: createWhatsAppAdapter,
  });
  const get = (key: string): RouteHandler => {
    const handler = harness.routes.get(key);
    if (handler === undefined) throw new Error(`no route ${key}`);
    return handler;
  };
  return {
    ...harness,
    events: () => get(`POST ${WEBHOOK_PATH}`),
    verification: () => get(`GET ${WEBHOOK_PATH}`),
    signed(payload, signature) {
      const rawBody = typeof payload === 'string' ? payload : JSON.stringify(payload);
      let body: unknown;
      try {
        body = JSON.parse(rawBody);
      } catch {
        body = undefined;
      }
      const header = signature === undefined ? signWebhook(rawBody, fake.appSecret) : signature;
      return {
        headers: { 'content-type': 'application/json', ...(header === null ? {} : { 'x-hub-signature-256': header }) },
        body,
        rawBody,
      };
    },
  };
}

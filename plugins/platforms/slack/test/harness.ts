// The Slack adapter on the shared adapter harness (test/contract/adapter-harness.ts): the fake
// Slack, an in-memory PlatformContext, the recorders, and signed HTTP events.

import type { AdapterDeps } from '@hermes/plugin-sdk';
import type { RouteRequest } from '@hermes/protocol';
import { type AdapterHarness, adapterHarness, type RouteHandler } from '../../../../test/contract/adapter-harness.js';
import { type FakeSlack, type FakeSlackOptions, startFakeSlack } from '../../../../test/fakes/slack-server.js';
import { createSlackAdapter } from '../adapter.js';

export type { RouteHandler } from '../../../../test/contract/adapter-harness.js';
export * from '../../../../test/contract/recorders.js';

export const BOT_TOKEN = 'xoxb-1234567890-0987654321-TestBotTokenSecret';
export const APP_TOKEN = 'xapp-1-A0TESTAPP01-1234567890-TestAppTokenSecret';
export const SIGNING_SECRET = 'test-signing-secret-8f14e45fceea167a';
export const BOT_USER = 'UBOT0001';

export interface Harness extends Omit<AdapterHarness<FakeSlack, AdapterDeps>, 'route'> {
  /** the HTTP events route handler (default path) */
  route(path?: string): RouteHandler;
  /** a RouteRequest as the gateway's server hands it over, signed unless told otherwise */
  signed(body: unknown, options?: Parameters<FakeSlack['signedRequest']>[1]): RouteRequest;
}

export const TEST_SETTINGS = { liveness_timeout_ms: 400, resolve_user_names: false };

/** Starts a fake Slack and hands out adapters wired to it (socket mode unless settings say `mode: 'http'`). */
export async function startHarness(fakeOptions: FakeSlackOptions = {}): Promise<Harness> {
  const fake = await startFakeSlack({
    botToken: BOT_TOKEN,
    appToken: APP_TOKEN,
    signingSecret: SIGNING_SECRET,
    botUserId: BOT_USER,
    ...fakeOptions,
  });
  const harness = adapterHarness({
    platform: 'slack',
    fake,
    env: { SLACK_BOT_TOKEN: BOT_TOKEN, SLACK_APP_TOKEN: APP_TOKEN, SLACK_SIGNING_SECRET: SIGNING_SECRET },
    settings: { api_url: fake.apiUrl, ...TEST_SETTINGS },
    commands: [],
    create: createSlackAdapter,
  });
  return {
    ...harness,
    route: (path = '/slack/events') => harness.route(path),
    signed(body, options) {
      const request = fake.signedRequest(body, options);
      return { headers: request.headers, body: typeof body === 'string' ? undefined : body, rawBody: request.rawBody };
    },
  };
}

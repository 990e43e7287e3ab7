// The Telegram adapter on the shared adapter harness (test/contract/adapter-harness.ts): the fake
// Bot API, an in-memory PlatformContext, the recorders.

import type { AdapterDeps } from '@hermes/plugin-sdk';
import { type AdapterHarness, adapterHarness } from '../../../../test/contract/adapter-harness.js';
import { type FakeTelegram, startFakeTelegram } from '../../../../test/fakes/telegram-server.js';
import { createTelegramAdapter } from '../adapter.js';

export type { RouteHandler } from '../../../../test/contract/adapter-harness.js';
export * from '../../../../test/contract/recorders.js';

export const TOKEN = '123456:TEST-token';
export const BOT_ID = 123456;

export type Harness = AdapterHarness<FakeTelegram, AdapterDeps>;

/** Starts a fake Telegram and hands out adapters wired to it (settings over `{ poll_timeout_s: 1 }`). */
export async function startHarness(fakeOptions: { longPollCapMs?: number } = {}): Promise<Harness> {
  const fake = await startFakeTelegram({ token: TOKEN, longPollCapMs: fakeOptions.longPollCapMs ?? 500 });
  return adapterHarness({
    platform: 'telegram',
    fake,
    env: { TELEGRAM_BOT_TOKEN: TOKEN },
    settings: { api_root: fake.apiRoot, poll_timeout_s: 1 },
    commands: [],
    create: createTelegramAdapter,
  });
}

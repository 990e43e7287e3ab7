// The Discord adapter on the shared adapter harness (test/contract/adapter-harness.ts): the fake
// Discord gateway and REST API, an in-memory PlatformContext, the recorders.

import type { AdapterDeps } from '@hermes/plugin-sdk';
import { type AdapterHarness, type AdapterOptions, adapterHarness } from '../../../../test/contract/adapter-harness.js';
import { type FakeDiscord, startFakeDiscord } from '../../../../test/fakes/discord-server.js';
import { createDiscordAdapter } from '../adapter.js';

export { GATEWAY_COMMANDS } from '../../../../test/contract/adapter-harness.js';
export * from '../../../../test/contract/recorders.js';

/** Shaped like a real token (base64 id, timestamp, HMAC) so the redaction patterns are exercised. */
export const TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAwMQ.GhErMs.TEST-discord-token-secret-0123456789abcd';

export const ADA = { id: '100000000000000001', name: 'Ada' };
export const BOB = { id: '100000000000000002', name: 'Bob' };

export type HarnessOptions = AdapterOptions<AdapterDeps>;
export type Harness = AdapterHarness<FakeDiscord, AdapterDeps>;

/** Starts a fake Discord and hands out adapters wired to it (settings over `{ api_base, slash_commands: false }`). */
export async function startHarness(): Promise<Harness> {
  const fake = await startFakeDiscord({ token: TOKEN });
  return adapterHarness({
    platform: 'discord',
    fake,
    env: { DISCORD_BOT_TOKEN: TOKEN },
    settings: { api_base: fake.apiBase, slash_commands: false },
    routes: false,
    create: createDiscordAdapter,
  });
}

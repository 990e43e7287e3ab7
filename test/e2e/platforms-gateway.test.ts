// `hermes gateway run` with every platform at once: the bundled platform plugins load from their
// tokens (through the plugin loader), connect to their fakes, show in /health, and each answers a
// DM through the real SDK. The contract suite covers the behaviour; this covers the wiring.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { PlatformDriver } from '../contract/driver.js';
import { discordDriver } from '../contract/drivers/discord.js';
import { slackSocketDriver } from '../contract/drivers/slack.js';
import { telegramDriver } from '../contract/drivers/telegram.js';
import { tempHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { waitFor } from '../helpers/wait-for.js';

const openai = useFakeOpenAI();
const drivers: PlatformDriver[] = [telegramDriver('polling'), discordDriver(), slackSocketDriver()];

beforeAll(async () => {
  for (const d of drivers) await d.start();
});
afterAll(async () => {
  for (const d of drivers) await d.close();
});

describe('hermes gateway run with Telegram, Discord and Slack', () => {
  it('connects all three from their tokens and answers a DM on each', async () => {
    const home = tempHome();
    const platforms: Record<string, unknown> = {};
    const env: Record<string, string> = {
      HERMES_HOME: home,
      OPENAI_BASE_URL: openai.server.url,
      HERMES_INFERENCE_MODEL: 'test-model',
    };
    for (const d of drivers) {
      platforms[d.platform] = d.settings();
      Object.assign(env, d.env([d.user(0)]));
    }
    writeFileSync(join(home, 'config.yaml'), stringify({ gateway: { platforms } }));
    openai.server.respond((request) => {
      const messages = (request.body?.messages ?? []) as { role: string; content: unknown }[];
      return { text: `echo: ${String(messages.at(-1)?.content ?? '')}` };
    });
    const gw = await spawnGateway(env, 30_000);
    try {
      await waitFor(
        async () => {
          const health = (await (await fetch(`${gw.url}/health`)).json()) as {
            status: string;
            platforms: Record<string, { state: string }>;
          };
          return drivers.every((d) => health.platforms[d.platform]?.state === 'connected');
        },
        { what: 'every platform connected' },
      );
      for (const d of drivers) {
        await d.waitReady();
        const ref = await d.dm(d.user(0), `hello ${d.platform}`);
        await waitFor(() => d.sent().length > 0, { what: `the ${d.platform} answer` });
        expect(d.sent()[0]).toMatchObject({ chatId: ref.chatId });
        expect(d.sent()[0]?.text).toContain(`echo: hello ${d.platform}`);
      }
    } finally {
      expect(await gw.stop()).toBe(0);
    }
    const log = gw.stderr();
    for (const secret of Object.entries(env).filter(([k]) => /TOKEN|SECRET/.test(k))) {
      expect(log).not.toContain(secret[1]);
    }
  });
});

// A platform's SDK loads when the platform starts, after `gateway run` answers /health, and a
// platform whose SDK cannot be loaded shows `error` with the reason on /health while the gateway
// runs on. The platform is a user plugin on the plugin SDK's lazyAdapter; its module load waits for
// a file the test writes, then imports a package that does not exist.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempHome, trustHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { waitFor } from '../helpers/wait-for.js';

const openai = useFakeOpenAI();

const PLUGIN = `
import { existsSync } from 'node:fs';
import { lazyAdapter } from '@hermes/plugin-sdk';

const CAPABILITIES = { maxMessageLength: 1000, formatting: 'plain', editing: false, typing: false, threads: false };

export default function register(ctx) {
  ctx.registerPlatform({
    name: 'heavy',
    capabilities: CAPABILITIES,
    factory: {
      name: 'heavy',
      hasCredentials: () => true,
      create: (context) =>
        lazyAdapter(context, {
          name: 'heavy',
          capabilities: CAPABILITIES,
          apiUrl: 'http://127.0.0.1:9',
          format: (markdown) => markdown,
          methods: [],
          routes: [{ method: 'POST', path: '/heavy/webhook' }],
          load: async () => {
            // the SDK's load takes its time: until the test opens the gate
            while (!existsSync(process.env.HEAVY_GATE)) await new Promise((r) => setTimeout(r, 20));
            return (await import('hermes-test-sdk-that-is-not-installed')).createAdapter();
          },
        }),
    },
  });
}
`;

interface Health {
  status: string;
  platforms: Record<string, { state: string; error?: string }>;
}

async function health(url: string): Promise<{ code: number; body: Health }> {
  const res = await fetch(`${url}/health`);
  return { code: res.status, body: (await res.json()) as Health };
}

describe('gateway run: a platform SDK loaded on start', () => {
  it('is healthy while the SDK loads; an SDK that cannot be loaded is `error` with the reason, the gateway runs on', async () => {
    const home = tempHome();
    const dir = join(home, 'plugins', 'heavy');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'plugin.yaml'), 'name: heavy\nversion: 0.1.0\ndescription: test\nkind: platform\n');
    writeFileSync(join(dir, 'index.ts'), PLUGIN);
    writeFileSync(join(home, 'config.yaml'), 'plugins:\n  enabled: [heavy]\n');
    trustHome(home);
    const gate = join(home, 'gate');
    const gw = await spawnGateway(
      {
        HERMES_HOME: home,
        OPENAI_BASE_URL: openai.server.url,
        HERMES_INFERENCE_MODEL: 'test-model',
        HEAVY_GATE: gate,
      },
      30_000,
      [],
      { platforms: false },
    );
    try {
      // listening and healthy while the platform's module is still loading
      const before = await health(gw.url);
      expect(before.code).toBe(200);
      expect(before.body.status).toBe('degraded');
      expect(before.body.platforms.heavy?.state).toBe('connecting');
      // its route exists from the start and answers 503 until the adapter is loaded
      const early = await fetch(`${gw.url}/heavy/webhook`, { method: 'POST', body: '{}' });
      expect(early.status).toBe(503);
      writeFileSync(gate, '');
      await waitFor(async () => (await health(gw.url)).body.platforms.heavy?.state === 'error');
      const after = await health(gw.url);
      expect(after.code).toBe(200);
      expect(after.body.status).toBe('degraded');
      expect(after.body.platforms.heavy?.error).toMatch(
        /its adapter could not be loaded: .*hermes-test-sdk-that-is-not-installed/,
      );
      await waitFor(
        () => /hermes gateway platforms started: .*heavy error \(its adapter could not be loaded/.test(gw.stderr()),
        {
          what: () => `the start line in: ${gw.stderr()}`,
        },
      );
      // the gateway runs on: its API answers
      const models = await fetch(`${gw.url}/v1/models`);
      expect(models.status).toBe(200);
    } finally {
      writeFileSync(gate, '');
      expect(await gw.stop()).toBe(0);
    }
  });
});

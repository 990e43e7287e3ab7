// What a new user meets when something is down (issue 29, items 2, 4 and 9), through `hermes
// gateway run`: a Telegram API that accepts connections and never answers puts the platform in
// `error` with the reason at the first failed attempt (in /health, `hermes gateway status` and
// the log) while it retries; an enabled plugin that fails to load makes the gateway `degraded`,
// named in the start line, /health and status; the start line lists the API platform.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHermes, tempHome, trustHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { waitFor } from '../helpers/wait-for.js';

const TOKEN = '123456789:AAHfaketokenFAILLOUDLYfaketoken123';
const openai = useFakeOpenAI();
let silent: Server;
let silentRoot = '';
const sockets = new Set<Socket>();

beforeAll(async () => {
  // accepts every connection, reads what comes, answers nothing
  silent = createServer((socket) => {
    sockets.add(socket);
    socket.on('data', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const address = silent.address() as { port: number };
  silentRoot = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => silent.close(resolve));
});

interface Health {
  status: string;
  platforms: Record<string, { state: string; error?: string }>;
  plugins?: { failed: { name: string; error: string }[] };
}
const health = async (url: string) => (await (await fetch(`${url}/health`)).json()) as Health;

describe('failing loudly', () => {
  it('a Telegram API that never answers: telegram `error` with the reason within the first attempt, in /health, status and the log', async () => {
    const home = tempHome();
    const env = {
      HERMES_HOME: home,
      OPENAI_BASE_URL: openai.server.url,
      HERMES_INFERENCE_MODEL: 'test-model',
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_API_ROOT: silentRoot,
      TELEGRAM_ALLOWED_USERS: '42',
    };
    // the answer timeout shortened from its default (20 s, asserted by the plugin's settings test)
    writeFileSync(join(home, 'config.yaml'), 'gateway:\n  platforms:\n    telegram:\n      api_timeout_s: 3\n');
    const gw = await spawnGateway(env, 30_000, [], { platforms: false });
    try {
      expect(gw.stderr()).toMatch(/listening on http:\/\/\S+ \(platforms: telegram, web, api\)/);
      const started = Date.now();
      const failed = await waitFor(
        async () => {
          const h = await health(gw.url);
          return h.platforms.telegram?.state === 'error' ? h : null;
        },
        { what: 'telegram in error in /health', timeoutMs: 30_000, stepMs: 100 },
      );
      // the answer timeout (3 s) after the request was sent, not the operating system's TCP timeout
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(failed.status).toBe('degraded');
      expect(failed.platforms.telegram?.error).toBe('network: the Bot API did not answer within 3 s');
      expect(failed.platforms.telegram?.error).not.toContain(TOKEN);
      const status = await runHermes(['gateway', 'status'], { env: { HERMES_HOME: home } });
      expect(status.code).toBe(0);
      expect(status.stdout).toContain('health degraded');
      expect(status.stdout).toContain('telegram error (network: the Bot API did not answer within 3 s)');
      const json = await runHermes(['gateway', 'status', '--json'], { env: { HERMES_HOME: home } });
      expect(JSON.parse(json.stdout)).toMatchObject({
        platforms: { telegram: 'error' },
        platform_errors: { telegram: 'network: the Bot API did not answer within 3 s' },
      });
      const log = readFileSync(join(home, 'logs', 'gateway.log'), 'utf8');
      expect(log).toMatch(/telegram: connection error; retrying with backoff/);
      expect(log).toContain('the Bot API did not answer within 3 s');
    } finally {
      expect(await gw.stop()).toBe(0);
    }
  }, 90_000);

  it('an enabled plugin that fails to load: degraded, named in the start line, /health and gateway status', async () => {
    const home = tempHome();
    const dir = join(home, 'plugins', 'broken');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'plugin.yaml'), 'name: broken\nversion: 1.0.0\ndescription: throws in register\n');
    writeFileSync(
      join(dir, 'index.ts'),
      "export function register() {\n  throw new Error('the weather key is missing');\n}\n",
    );
    writeFileSync(join(home, 'config.yaml'), 'plugins:\n  enabled: [broken]\n');
    trustHome(home);
    const gw = await spawnGateway({
      HERMES_HOME: home,
      OPENAI_BASE_URL: openai.server.url,
      HERMES_INFERENCE_MODEL: 'test-model',
    });
    try {
      expect(gw.stderr()).toMatch(
        /listening on http:\/\/\S+ \(platforms: web, api\); degraded: plugin broken failed to load\n/,
      );
      expect(gw.stderr()).toContain('hermes: plugin broken failed to load: ');
      expect(gw.stderr()).toContain('the weather key is missing');
      const h = await health(gw.url);
      expect(h.status).toBe('degraded');
      expect(h.plugins?.failed).toEqual([
        { name: 'broken', error: expect.stringContaining('the weather key is missing') },
      ]);
      const status = await runHermes(['gateway', 'status'], { env: { HERMES_HOME: home } });
      expect(status.stdout).toContain('health degraded');
      expect(status.stdout).toMatch(/plugins failed: broken: .*the weather key is missing/);
    } finally {
      expect(await gw.stop()).toBe(0);
    }
  });
});

// `hermes doctor` checks for real (issue 29, item 3): a platform's token is asked about once at the
// API the gateway would use (accepted, refused, or an API that does not answer: exit 1), and a
// model provider's line says whether its key is set, as `hermes model list` does.
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram-server.js';
import { runHermes, tempHome } from '../helpers/run-hermes.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';

const TOKEN = '123456789:AAHfaketokenDOCTORCHECKSfaketoken12';
const openai = useFakeOpenAI();
let tg: FakeTelegram;
let silent: Server;
let silentRoot = '';
const sockets = new Set<Socket>();

beforeAll(async () => {
  tg = await startFakeTelegram({ token: TOKEN });
  silent = createServer((socket) => {
    sockets.add(socket);
    socket.on('data', () => {});
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentRoot = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => silent.close(resolve));
  await tg.close();
});

const doctor = (env: Record<string, string>) =>
  runHermes(['doctor'], {
    env: {
      HERMES_HOME: tempHome(),
      OPENAI_BASE_URL: openai.server.url,
      HERMES_INFERENCE_MODEL: 'test-model',
      ...env,
    },
  });

describe('hermes doctor checks what it can for real', () => {
  it("a platform's token is asked about once: accepted is ✓ with the bot's name, never the token", async () => {
    openai.server.respond(() => ({ text: 'OK' }));
    const r = await doctor({ TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_API_ROOT: tg.apiRoot });
    expect(r.stdout).toContain('✓ platform telegram: token accepted (getMe: @hermes_test_bot)');
    expect(r.stdout).not.toContain(TOKEN);
    expect(r.code).toBe(0);
  });

  it('a refused token and an API that does not answer each fail the check and the exit code', async () => {
    openai.server.respond(() => ({ text: 'OK' }));
    const refused = await doctor({ TELEGRAM_BOT_TOKEN: '999:wrongtokenwrongtoken', TELEGRAM_API_ROOT: tg.apiRoot });
    expect(refused.stdout).toContain(`✗ platform telegram: ${tg.apiRoot} refused the token: HTTP 401 Unauthorized`);
    expect(refused.stdout).not.toContain('wrongtokenwrongtoken');
    expect(refused.code).toBe(1);
    const unreachable = await doctor({ TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_API_ROOT: silentRoot });
    expect(unreachable.stdout).toContain(`✗ platform telegram: cannot reach ${silentRoot}: no answer within 5 s`);
    expect(unreachable.code).toBe(1);
  });

  it("a model provider's line says whether its key is set, not just `configured`", async () => {
    openai.server.respond(() => ({ text: 'OK' }));
    const r = await doctor({});
    expect(r.stdout).toContain('✓ backend model-providers/openai: model provider openai, OPENAI_API_KEY: not set');
    expect(r.stdout).toContain('model provider custom (active)');
    expect(r.stdout).not.toMatch(/model-providers\/openai: configured/);
    const withKey = await doctor({ OPENAI_API_KEY: 'sk-doctor-test-key-123' });
    expect(withKey.stdout).toContain('model provider openai, OPENAI_API_KEY: set');
    expect(withKey.stdout).not.toContain('sk-doctor-test-key-123');
  });
});

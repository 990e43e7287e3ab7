// What "healthy" means for `hermes gateway run`: /health answers 200 as soon as the server listens,
// the store is open and recovered, plugins and hooks are loaded; a platform still connecting keeps
// `status: degraded` (its state `connecting`) until it has connected, then `ok`. The fake Bot API
// holds the answer to getMe, so Telegram cannot connect until the test lets it.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram-server.js';
import { tempHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { waitFor } from '../helpers/wait-for.js';

const TOKEN = '123456789:AAHfaketokenfaketokenfaketoken5678';
const openai = useFakeOpenAI();
let tg: FakeTelegram;
beforeAll(async () => {
  tg = await startFakeTelegram({ token: TOKEN, longPollCapMs: 200 });
});
afterAll(async () => {
  await tg.close();
});
beforeEach(() => tg.reset());

interface Health {
  status: string;
  state: string;
  platforms: Record<string, { state: string }>;
}

async function health(url: string): Promise<{ code: number; body: Health }> {
  const res = await fetch(`${url}/health`);
  return { code: res.status, body: (await res.json()) as Health };
}

describe('gateway run: healthy before the platforms connect', () => {
  it('answers 200 degraded while Telegram connects, ok once it has; a message sent meanwhile is answered', async () => {
    const held = tg.holdNext('getMe');
    const home = tempHome();
    const gw = await spawnGateway(
      {
        HERMES_HOME: home,
        OPENAI_BASE_URL: openai.server.url,
        HERMES_INFERENCE_MODEL: 'test-model',
        TELEGRAM_BOT_TOKEN: TOKEN,
        TELEGRAM_API_ROOT: tg.apiRoot,
        TELEGRAM_ALLOWED_USERS: '42',
      },
      15_000,
      [],
      { platforms: false },
    );
    try {
      // the gateway is up and says so while its getMe is still unanswered
      await tg.waitForCall('getMe');
      const before = await health(gw.url);
      expect(before.code).toBe(200);
      expect(before.body).toMatchObject({ status: 'degraded', state: 'running' });
      expect(before.body.platforms.telegram?.state).toBe('connecting');
      expect(gw.stderr()).not.toContain('platforms started');
      // a message waiting on Telegram's side is fetched once the platform connects
      openai.server.script({ text: 'answered after connecting' });
      tg.pushMessage({ chatId: 42, userId: 42, text: 'hello early' });
      held.release();
      await waitFor(async () => (await health(gw.url)).body.status === 'ok');
      const after = await health(gw.url);
      expect(after.code).toBe(200);
      expect(after.body.platforms.telegram?.state).toBe('connected');
      await waitFor(() => gw.stderr().includes('hermes gateway platforms started: telegram connected'));
      await waitFor(() => tg.sent.length > 0);
      expect(tg.sent[0]).toMatchObject({ chat_id: 42, text: 'answered after connecting' });
    } finally {
      held.release();
      expect(await gw.stop()).toBe(0);
    }
  });
});

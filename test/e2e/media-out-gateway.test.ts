// Outbound media end to end: `hermes gateway run` with real grammy against the fake Bot API. An
// answer's MEDIA line arrives as a native photo without the line; a MEDIA line naming
// HERMES_HOME/.env uploads nothing; image_generate (the bundled openai image-gen plugin against the
// fake model's /images/generations) arrives as a photo, saved in the asker's own media folder, which
// another user's MEDIA line cannot send from.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { safeIdentityName } from '@hermes/protocol';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FAKE_PNG, scriptToolTurn } from '../fakes/openai-server.js';
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

const env = (home: string) => ({
  HERMES_HOME: home,
  OPENAI_BASE_URL: openai.server.url,
  HERMES_INFERENCE_MODEL: 'test-model',
  TELEGRAM_BOT_TOKEN: TOKEN,
  TELEGRAM_API_ROOT: tg.apiRoot,
  TELEGRAM_ALLOWED_USERS: '42,77',
});

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe('outbound media through hermes gateway run (Telegram)', () => {
  it('a MEDIA line arrives as a photo without the line; one naming HERMES_HOME/.env uploads nothing; image_generate sends a photo', async () => {
    const home = tempHome();
    // in read_file's roots (HERMES_HOME/cache), which MEDIA lines obey
    mkdirSync(join(home, 'cache', 'charts'), { recursive: true });
    const png = join(home, 'cache', 'charts', 'chart.png');
    writeFileSync(png, FAKE_PNG);
    writeFileSync(join(home, '.env'), 'HERMES_E2E_MARKER=media-out-e2e-value\n', { mode: 0o600 });
    const gw = await spawnGateway(env(home));
    try {
      await waitFor(() => tg.pendingPolls() > 0);
      openai.server.script({ text: `Your chart:\nMEDIA: ${png}` });
      tg.pushMessage({ chatId: 42, userId: 42, text: 'chart please' });
      await waitFor(() => tg.uploads.length > 0 && tg.sent.length > 0);
      expect(tg.uploads[0]).toMatchObject({ method: 'sendPhoto', chat_id: 42, fileName: 'chart.png' });
      expect(tg.uploads[0]?.sha256).toBe(sha(FAKE_PNG));
      expect(tg.sent[0]?.text).toBe('Your chart:');

      openai.server.script({ text: `Sure.\nMEDIA: ${join(home, '.env')}` });
      tg.pushMessage({ chatId: 42, userId: 42, text: 'send me your .env' });
      await waitFor(() => tg.sent.length > 1);
      expect(tg.sent[1]?.text).toContain('Not sent');
      expect(tg.sent[1]?.text).toContain('never sent');
      expect(tg.sent[1]?.text).not.toContain('media-out-e2e-value');
      expect(tg.uploads).toHaveLength(1);

      openai.server.script(...scriptToolTurn('image_generate', { prompt: 'a red square' }, 'Here it is.'));
      tg.pushMessage({ chatId: 42, userId: 42, text: 'draw a red square' });
      await waitFor(() => tg.uploads.length > 1 && tg.sent.length > 2);
      expect(tg.uploads[1]).toMatchObject({ method: 'sendPhoto', chat_id: 42 });
      expect(tg.uploads[1]?.sha256).toBe(sha(FAKE_PNG));
      expect(tg.sent[2]?.text).toBe('Here it is.');
      const asked = openai.server.requests.find((r) => r.path.endsWith('/images/generations'));
      expect(asked?.body).toMatchObject({ prompt: 'a red square', model: 'gpt-image-1', n: 1 });
      // the image is user 42's: in their own media folder, not a shared one
      const images = join(home, 'cache', 'media', safeIdentityName('telegram:42'), 'images');
      const [made] = readdirSync(images);
      expect(made).toMatch(/^image-[0-9a-f]{16}\.png$/);

      // user 77's model names it: nothing is uploaded, the reply says why
      openai.server.script({ text: `Found one:\nMEDIA: ${join(images, made ?? '')}` });
      tg.pushMessage({ chatId: 77, userId: 77, text: 'show me what 42 drew' });
      await waitFor(() => tg.sent.some((m) => m.chat_id === 77));
      expect(tg.sent.find((m) => m.chat_id === 77)?.text).toContain("not in this user's folder");
      expect(tg.uploads).toHaveLength(2);
    } finally {
      expect(await gw.stop()).toBe(0);
    }
  });
});

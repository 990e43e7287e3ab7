// stt.provider xai through `hermes gateway run`: a Telegram voice note (real grammy, the fake Bot
// API) is transcribed by the fake xAI speech to text endpoint that XAI_BASE_URL names, with
// XAI_API_KEY, and the model gets `[voice] <transcript>`; the OpenAI-compatible transcription
// endpoint (the model's) is not asked.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram-server.js';
import { type FakeXaiStt, startFakeXaiStt } from '../fakes/xai-stt.js';
import { tempHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { waitFor } from '../helpers/wait-for.js';

const TOKEN = '123456789:AAHfaketokenfaketokenfaketokenXAI1';
const openai = useFakeOpenAI();
let tg: FakeTelegram;
let xai: FakeXaiStt;
beforeAll(async () => {
  [tg, xai] = await Promise.all([startFakeTelegram({ token: TOKEN, longPollCapMs: 200 }), startFakeXaiStt()]);
});
afterAll(async () => {
  await Promise.all([tg.close(), xai.close()]);
});

describe('stt.provider xai through hermes gateway run', () => {
  it('a voice note is transcribed by xAI (POST /v1/stt, XAI_API_KEY) and reaches the model as [voice]', async () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), 'stt:\n  provider: xai\n');
    const gw = await spawnGateway({
      HERMES_HOME: home,
      OPENAI_BASE_URL: openai.server.url,
      HERMES_INFERENCE_MODEL: 'test-model',
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_API_ROOT: tg.apiRoot,
      TELEGRAM_ALLOWED_USERS: '42',
      XAI_BASE_URL: xai.url,
      XAI_API_KEY: xai.key,
    });
    try {
      await waitFor(() => tg.pendingPolls() > 0, { what: 'the bot polling' });
      xai.script({ text: 'remind me to call mum' });
      openai.server.script({ text: 'noted your voice' });
      tg.pushMessage({ chatId: 42, userId: 42, voice: { data: 'OggS xai voice bytes' } });
      await waitFor(() => tg.sent.length > 0, { what: 'the answer' });
      expect(tg.sent[0]?.text).toContain('noted your voice');
      const chat = openai.server.requests.find((r) => r.path.endsWith('/chat/completions'));
      const messages = chat?.body?.messages as { role: string; content: unknown }[];
      expect(messages.at(-1)).toEqual({ role: 'user', content: '[voice] remind me to call mum' });
      expect(xai.requests).toHaveLength(1);
      expect(xai.requests[0]).toMatchObject({ authorization: `Bearer ${xai.key}`, fields: ['file'] });
      expect(xai.requests[0]?.file?.data.toString()).toBe('OggS xai voice bytes');
      expect(openai.server.transcriptions).toHaveLength(0);
    } finally {
      expect(await gw.stop()).toBe(0);
    }
  });
});

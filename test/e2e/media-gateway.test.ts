// The inbound-media acceptance path: `hermes gateway run` with real grammy against the fake Bot API
// and the fake model: a photo reaches the model as an image part whose bytes equal the photo's, a
// voice note becomes "[voice] <transcript>", files land in HERMES_HOME/cache/media/<sender> (old ones removed
// after media.cache_days) and state.db keeps the path, never the image bytes.
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { imagePartsOf } from '../fakes/openai-server.js';
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

const chats = () => openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'));

const env = (home: string) => ({
  HERMES_HOME: home,
  OPENAI_BASE_URL: openai.server.url,
  HERMES_INFERENCE_MODEL: 'test-model',
  TELEGRAM_BOT_TOKEN: TOKEN,
  TELEGRAM_API_ROOT: tg.apiRoot,
  TELEGRAM_ALLOWED_USERS: '42',
});

describe('inbound media through hermes gateway run (telegram)', () => {
  it('a photo arrives as an image part with its bytes; a voice note as [voice] <transcript>; the cache is cleaned', async () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), 'media:\n  cache_days: 2\n');
    const cache = join(home, 'cache', 'media');
    mkdirSync(cache, { recursive: true });
    const stale = join(cache, 'stale-photo.jpg');
    writeFileSync(stale, 'old');
    const old = new Date(Date.now() - 3 * 86_400_000);
    utimesSync(stale, old, old);
    const photo = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('e2e jpeg '.repeat(400))]);
    const gw = await spawnGateway(env(home));
    try {
      await waitFor(() => tg.pendingPolls() > 0);
      await waitFor(() => !existsSync(stale));
      openai.server.script({ text: 'a photo of text' }, { text: 'noted your voice' });
      tg.pushMessage({ chatId: 42, userId: 42, photo: { data: photo, fileName: 'photo.jpg' } });
      await waitFor(() => tg.sent.length > 0);
      expect(tg.sent[0]?.text).toContain('a photo of text');
      expect(imagePartsOf(chats()[0])).toEqual([{ mimeType: 'image/jpeg', data: photo }]);
      // in the sender's own folder of the cache (users apart)
      expect(
        readdirSync(cache, { recursive: true }).some((name) =>
          /^telegram_42-[0-9a-f]{8}\/.*photo\.jpg$/.test(String(name)),
        ),
      ).toBe(true);

      openai.server.scriptTranscription({ text: 'remind me to call mum' });
      tg.pushMessage({ chatId: 42, userId: 42, voice: { data: 'OggS opus bytes' } });
      await waitFor(() => tg.sent.length > 1);
      const messages = chats()[1]?.body?.messages as { role: string; content: unknown }[];
      expect(messages.at(-1)).toEqual({ role: 'user', content: '[voice] remind me to call mum' });
      expect(openai.server.transcriptions[0]?.data.toString()).toBe('OggS opus bytes');
    } finally {
      expect(await gw.stop()).toBe(0);
    }
    // the transcript keeps a reference to the cached photo, never its bytes
    const stored = ['state.db', 'state.db-wal']
      .map((f) => join(home, f))
      .filter(existsSync)
      .map((f) => readFileSync(f).toString('latin1'))
      .join('');
    expect(stored).toContain('photo.jpg');
    expect(stored).not.toContain(photo.toString('base64').slice(0, 200));
  });

  it("stores nothing for a stranger, and each user's files up to media.daily_upload_mb a day, counted across a restart", async () => {
    const home = tempHome();
    // 0.01 MB: one small photo fits, a second one the same day does not
    writeFileSync(join(home, 'config.yaml'), 'media:\n  daily_upload_mb: 0.01\n');
    const cache = join(home, 'cache', 'media');
    const photo = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('x'.repeat(6_000))]);
    const gw = await spawnGateway(env(home));
    // each user's files are in their own folder of the cache (users apart)
    const cached = () =>
      existsSync(cache) ? readdirSync(cache, { recursive: true }).filter((n) => String(n).endsWith('.jpg')) : [];
    try {
      await waitFor(() => tg.pendingPolls() > 0);
      // a stranger (not allowlisted, not paired) gets the pairing code; the photo is never fetched
      tg.pushMessage({ chatId: 777, userId: 777, photo: { data: photo, fileName: 'stranger.jpg' } });
      await waitFor(() => tg.sent.some((m) => /pairing code/.test(m.text)));
      expect(tg.calls.filter((c) => c.method === 'getFile')).toEqual([]);
      expect(cached()).toEqual([]);

      openai.server.script({ text: 'first photo seen' }, { text: 'second photo?' });
      tg.pushMessage({ chatId: 42, userId: 42, photo: { data: photo, fileName: 'one.jpg' } });
      await waitFor(() => tg.sent.some((m) => /first photo seen/.test(m.text)));
      expect(cached()).toHaveLength(1);
      tg.pushMessage({ chatId: 42, userId: 42, photo: { data: photo, fileName: 'two.jpg' } });
      await waitFor(() => tg.sent.some((m) => /upload quota/.test(m.text)));
      expect(tg.sent.find((m) => /upload quota/.test(m.text))?.text).toMatch(/resets at 00:00 UTC/);
      expect(cached()).toHaveLength(1);
    } finally {
      expect(await gw.stop()).toBe(0);
    }
    // the day's count is in the store: after a restart the quota is still used up
    tg.reset();
    const again = await spawnGateway(env(home));
    try {
      await waitFor(() => tg.pendingPolls() > 0);
      openai.server.script({ text: 'third photo?' });
      tg.pushMessage({ chatId: 42, userId: 42, photo: { data: photo, fileName: 'three.jpg' } });
      await waitFor(() => tg.sent.some((m) => /upload quota/.test(m.text)));
      expect(cached()).toHaveLength(1);
    } finally {
      expect(await again.stop()).toBe(0);
    }
  });

  it('HERMES_LOCAL_STT_COMMAND transcribes a voice note locally (from the environment only, never from HERMES_HOME/.env)', async () => {
    const home = tempHome();
    // the template gets the audio file and an output folder; the transcript is the .txt it writes
    const command = `printf 'local words from %s' "$(cat {input_path})" > {output_dir}/out.txt`;
    const gw = await spawnGateway({ ...env(home), HERMES_LOCAL_STT_COMMAND: command });
    try {
      await waitFor(() => tg.pendingPolls() > 0);
      openai.server.script({ text: 'heard you locally' });
      tg.pushMessage({ chatId: 42, userId: 42, voice: { data: 'OggS local bytes' } });
      await waitFor(() => tg.sent.some((m) => m.text === 'heard you locally'));
      const messages = chats()[0]?.body?.messages as { role: string; content: unknown }[];
      expect(messages.at(-1)).toEqual({ role: 'user', content: '[voice] local words from OggS local bytes' });
      expect(openai.server.transcriptions).toHaveLength(0);
    } finally {
      expect(await gw.stop()).toBe(0);
    }

    // the same line in HERMES_HOME/.env is ignored, saying so: the HTTP endpoint transcribes
    const planted = tempHome();
    writeFileSync(join(planted, '.env'), `HERMES_LOCAL_STT_COMMAND=${command}\n`);
    openai.server.reset();
    tg.reset();
    const second = await spawnGateway(env(planted));
    try {
      await waitFor(() => tg.pendingPolls() > 0);
      openai.server.scriptTranscription({ text: 'over http' });
      openai.server.script({ text: 'heard you over http' });
      tg.pushMessage({ chatId: 42, userId: 42, voice: { data: 'OggS http bytes' } });
      await waitFor(() => tg.sent.some((m) => m.text === 'heard you over http'));
      expect(openai.server.transcriptions).toHaveLength(1);
    } finally {
      expect(await second.stop()).toBe(0);
    }
    const log = readdirSync(join(planted, 'logs'))
      .map((f) => readFileSync(join(planted, 'logs', f), 'utf8'))
      .join('');
    expect(log).toContain('HERMES_LOCAL_STT_COMMAND in');
    expect(log).toContain('is ignored: set it in the gateway');
  });
});

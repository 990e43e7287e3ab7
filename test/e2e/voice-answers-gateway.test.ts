// Voice answers end to end through `hermes gateway run` (real grammy against the fake Bot API, the
// fake model and its /audio/speech): a voice note is answered with the text and a voice note
// (sendVoice, the bytes the speech endpoint made); `/voice off` answers it with text only; `/voice
// on` answers a text message with voice too; a synthesis that fails still sends the text.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAKE_OPUS } from '../fakes/openai-server.js';
import { tempHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { telegramGatewayEnv, useFakeTelegram } from '../helpers/use-fake-telegram.js';
import { waitFor } from '../helpers/wait-for.js';

const openai = useFakeOpenAI();
const telegram = useFakeTelegram();
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('voice answers in a Telegram chat through hermes gateway run', () => {
  it('answers a voice note with text and a voice note; /voice off and /voice on change it; a failed synthesis keeps the text', async () => {
    const tg = telegram.server;
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), 'gateway:\n  batch_ms: 0\ntts:\n  voice: nova\n');
    openai.server.respond((req) => {
      const messages = (req.body as { messages: { role: string; content: string }[] }).messages;
      return { text: `Answer to ${String(messages.at(-1)?.content ?? '')}` };
    });
    const gw = await spawnGateway(
      telegramGatewayEnv({ home, modelUrl: openai.server.url, telegram: tg, allowedUsers: '42' }),
    );
    const texts = () => tg.sent.map((m) => m.text ?? '');
    const answered = (what: string) => waitFor(() => tg.sent.find((m) => m.text?.includes(what)), { what });
    try {
      // 1. a voice note: the text, then a voice note of it
      openai.server.scriptTranscription({ text: 'what time is it' });
      tg.pushMessage({ chatId: 42, userId: 42, voice: { data: 'OggS opus bytes' } });
      const text = await answered('Answer to [voice] what time is it');
      const voice = await waitFor(() => tg.uploads.find((u) => u.method === 'sendVoice'), { what: 'sendVoice' });
      expect(voice).toMatchObject({ chat_id: 42, size: FAKE_OPUS.length, sha256: sha256(FAKE_OPUS) });
      expect(voice.fileName).toMatch(/^voice-[0-9a-f]{16}\.opus$/);
      expect(text.message_id).toBeLessThan(voice.message_id); // the text first
      expect(openai.server.speeches.map((r) => r.body)).toEqual([
        {
          model: 'gpt-4o-mini-tts',
          input: 'Answer to [voice] what time is it',
          voice: 'nova',
          response_format: 'opus',
        },
      ]);

      // 2. /voice off: a voice note gets text only (synthesis comes before delivery: none was asked)
      tg.pushMessage({ chatId: 42, userId: 42, text: '/voice off' });
      await answered('Voice answers: off');
      tg.pushMessage({ chatId: 42, userId: 42, voice: { data: 'OggS more bytes' } });
      await answered('Answer to [voice] fake transcript');
      expect(openai.server.speeches).toHaveLength(1);

      // 3. /voice on: a text message is answered with voice too; a failed synthesis still sends the text
      tg.pushMessage({ chatId: 42, userId: 42, text: '/voice on' });
      await answered('Voice answers: on');
      openai.server.scriptSpeech({ status: 503, message: 'speech is down' });
      tg.pushMessage({ chatId: 42, userId: 42, text: 'first typed' });
      await answered('Answer to first typed');
      tg.pushMessage({ chatId: 42, userId: 42, text: 'second typed' });
      await answered('Answer to second typed');
      await waitFor(() => tg.uploads.length === 2, { what: 'the second voice note' });
      expect(tg.uploads.map((u) => u.method)).toEqual(['sendVoice', 'sendVoice']);
      expect(openai.server.speeches.map((r) => r.body?.input)).toEqual([
        'Answer to [voice] what time is it',
        'Answer to first typed',
        'Answer to second typed',
      ]);
      // the text never carries the file's MEDIA line
      expect(texts().some((t) => t.includes('MEDIA:'))).toBe(false);
    } finally {
      expect(await gw.stop()).toBe(0);
    }
    const log = readFileSync(join(home, 'logs', 'gateway.log'), 'utf8');
    expect(log).toContain('voice answer failed; the text goes alone');
    expect(log).toContain('answered HTTP 503: speech is down');
  });
});

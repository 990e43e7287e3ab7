// Uploading files through the fake Bot API with real grammy: sendPhoto for images, sendVoice for
// voice notes, sendDocument for the rest and for an image (or voice note) Telegram refuses as such,
// typed failures.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OutboundMedia, PlatformAdapter } from '@hermes/protocol';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FAKE_OPUS, FAKE_PNG } from '../../../../test/fakes/openai-server.js';
import { type Harness, startHarness } from './harness.js';

let h: Harness;
let adapter: PlatformAdapter;
const dir = mkdtempSync(join(tmpdir(), 'hermes-tg-media-'));
beforeAll(async () => {
  h = await startHarness();
  adapter = h.adapter();
});
afterAll(() => h.close());
beforeEach(() => h.fake.reset());

function media(fileName: string, data: Buffer, kind: OutboundMedia['kind'], mimeType: string): OutboundMedia {
  const path = join(dir, fileName);
  writeFileSync(path, data);
  return { chatId: '42', path, fileName, mimeType, kind, size: data.length };
}

describe('telegram sendMedia', () => {
  it('sends an image with sendPhoto (multipart) and returns the message id', async () => {
    const result = await adapter.sendMedia?.(media('dot.png', FAKE_PNG, 'image', 'image/png'));
    expect(result).toEqual({ ok: true, messageIds: [`42:${h.fake.uploads[0]?.message_id}`] });
    expect(h.fake.uploads[0]).toMatchObject({
      method: 'sendPhoto',
      chat_id: 42,
      fileName: 'dot.png',
      size: FAKE_PNG.length,
    });
  });

  it('sends other files with sendDocument, into the topic and as a reply', async () => {
    const file = {
      ...media('notes.txt', Buffer.from('notes'), 'document', 'text/plain'),
      chatId: '-100',
      threadId: '7',
    };
    const result = await adapter.sendMedia?.({ ...file, replyToMessageId: '-100:3' });
    expect(result?.ok).toBe(true);
    expect(h.fake.uploads[0]).toMatchObject({ method: 'sendDocument', fileName: 'notes.txt', message_thread_id: 7 });
  });

  it('an image Telegram cannot process as a photo goes as a document', async () => {
    const result = await adapter.sendMedia?.(
      media('broken.png', Buffer.from('not really a png'), 'image', 'image/png'),
    );
    expect(result?.ok).toBe(true);
    expect(h.fake.calls.filter((c) => c.method === 'sendPhoto').map((c) => c.status)).toEqual([400]);
    expect(h.fake.uploads.map((u) => u.method)).toEqual(['sendDocument']);
  });

  it('sends a voice note with sendVoice; one Telegram refuses as a voice note goes as a document', async () => {
    const voice = await adapter.sendMedia?.(media('voice-1.opus', FAKE_OPUS, 'voice', 'audio/ogg'));
    expect(voice).toEqual({ ok: true, messageIds: [`42:${h.fake.uploads[0]?.message_id}`] });
    expect(h.fake.uploads[0]).toMatchObject({ method: 'sendVoice', fileName: 'voice-1.opus', size: FAKE_OPUS.length });
    h.fake.failNext('sendVoice', { status: 400, description: 'Bad Request: VOICE_MESSAGES_FORBIDDEN' });
    const refused = await adapter.sendMedia?.(media('voice-2.opus', FAKE_OPUS, 'voice', 'audio/ogg'));
    expect(refused?.ok).toBe(true);
    expect(h.fake.uploads.map((u) => u.method)).toEqual(['sendVoice', 'sendDocument']);
    // a 429 is waited out by delivery, never turned into a document
    h.fake.failNext('sendVoice', { status: 429, retryAfter: 1 });
    const limited = await adapter.sendMedia?.(media('voice-3.opus', FAKE_OPUS, 'voice', 'audio/ogg'));
    expect(limited).toMatchObject({ ok: false, error: 'rate_limited' });
    expect(h.fake.uploads).toHaveLength(2);
  });

  it('a refused upload is a typed failure, never a throw', async () => {
    h.fake.failNext('sendDocument', { status: 400, description: 'Bad Request: file is too big' });
    const result = await adapter.sendMedia?.(media('big.txt', Buffer.from('x'), 'document', 'text/plain'));
    expect(result).toMatchObject({ ok: false, error: 'bad_format' });
    h.fake.failNext('sendDocument', { status: 429, retryAfter: 2 });
    const limited = await adapter.sendMedia?.(media('big.txt', Buffer.from('x'), 'document', 'text/plain'));
    expect(limited).toMatchObject({ ok: false, error: 'rate_limited', retryAfterMs: 2000 });
  });
});

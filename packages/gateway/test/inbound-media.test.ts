// The media step: each kind of file a user sends, and each bad one, into the model's user message
// and the notices for the reply.
import { existsSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Attachment, MessageEvent } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TRANSCRIPT } from '../../../test/fakes/openai-server.js';
import { useFakeOpenAI } from '../../../test/helpers/use-fake-openai.js';
import { cleanMediaCache } from '../src/media/cache-cleanup.js';
import { type MediaSettings, prepareInbound } from '../src/media/inbound-media.js';

const openai = useFakeOpenAI();
const dir = mkdtempSync(join(tmpdir(), 'hermes-media-'));
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('jpeg body')]);

function file(name: string, data: string | Buffer, kind: Attachment['kind'], mimeType?: string): Attachment {
  const path = join(dir, name);
  writeFileSync(path, data);
  return { kind, path, fileName: name, ...(mimeType ? { mimeType } : {}), size: Buffer.byteLength(data) };
}

function event(attachments: Attachment[], text = ''): MessageEvent {
  return {
    kind: 'media',
    platform: 'telegram',
    messageId: '1',
    text,
    attachments,
    source: { platform: 'telegram', chatId: '1', chatType: 'dm', userId: '1' },
    internal: false,
    receivedAt: 0,
    raw: null,
  };
}

const settings = (over: Partial<MediaSettings> = {}): MediaSettings => ({
  maxBytes: 1024 * 1024,
  stt: { baseUrl: openai.server.url, model: 'whisper-1', apiKey: 'sk-stt-test', timeoutMs: 2_000 },
  ...over,
});

describe('prepareInbound', () => {
  it('a photo without a caption becomes an image (sniffed type), nothing lost', async () => {
    const photo = file('photo.jpg', JPEG, 'photo', 'image/jpeg');
    const out = await prepareInbound(event([photo]), '', settings());
    expect(out.images).toEqual([{ path: photo.path, mimeType: 'image/jpeg', name: 'photo.jpg' }]);
    expect(out.notices).toEqual([]);
  });

  it('a voice note becomes "[voice] <transcript>" through /audio/transcriptions (multipart, stt.model); cached for a redo', async () => {
    const voice = file('voice.ogg', 'OggS voice bytes', 'audio', 'audio/ogg');
    openai.server.scriptTranscription({ text: '  hello from my voice  ' });
    const out = await prepareInbound(event([voice]), '', settings());
    expect(out.text).toBe('[voice] hello from my voice');
    expect(openai.server.transcriptions).toHaveLength(1);
    expect(openai.server.transcriptions[0]).toMatchObject({
      model: 'whisper-1',
      fileName: 'voice.ogg',
      mimeType: 'audio/ogg',
    });
    expect(openai.server.transcriptions[0]?.data.toString()).toBe('OggS voice bytes');
    const auth = openai.server.requests.find((r) => r.path.endsWith('/audio/transcriptions'))?.headers.authorization;
    expect(auth).toBe('Bearer sk-stt-test');
    const again = await prepareInbound(event([voice]), '', settings());
    expect(again.text).toBe('[voice] hello from my voice');
    expect(openai.server.transcriptions).toHaveLength(1);
  });

  it('a text document is inlined in a fenced block headed by its name, after the caption', async () => {
    const doc = file('notes.md', 'line one\n```js\ncode\n```\n', 'document', 'text/markdown');
    const out = await prepareInbound(event([doc], 'summarise'), 'summarise', settings());
    expect(out.text).toBe('summarise\n\nnotes.md:\n````\nline one\n```js\ncode\n```\n````');
  });

  it('other files, and text over 100 KB, become a note with the cached path', async () => {
    const zip = file('data.zip', 'PK\u0003\u0004zip', 'document', 'application/zip');
    const big = file('big.txt', 'x'.repeat(101 * 1024), 'document', 'text/plain');
    const weird = file('thing', 'abc', 'other', 'application/x-made-up; boundary=";;"');
    const out = await prepareInbound(event([zip, big, weird]), '', settings());
    expect(out.text).toContain(`[file data.zip (application/zip, 7 bytes): ${zip.path}]`);
    expect(out.text).toContain(`[file big.txt (text/plain, 101 KB, too long to inline): ${big.path}]`);
    expect(out.text).toContain(`[file thing (application/x-made-up, 3 bytes): ${weird.path}]`);
    expect(out.notices).toEqual([]);
  });

  it('bad input: corrupt image, empty, oversized and undownloaded files each get a notice naming the file', async () => {
    const corrupt = file('broken.jpg', 'not really a jpeg', 'photo', 'image/jpeg');
    const empty = file('empty.txt', '', 'document', 'text/plain');
    const huge: Attachment = { kind: 'document', path: null, fileName: 'huge.bin', size: 30 * 1024 * 1024 };
    const lost: Attachment = { kind: 'photo', path: null, fileName: 'lost.jpg' };
    const grown = file('grown.bin', Buffer.alloc(2048, 1), 'document');
    const out = await prepareInbound(
      event([corrupt, empty, huge, lost, { ...grown, size: 10 }], 'hi'),
      'hi',
      settings({ maxBytes: 1024 }),
    );
    expect(out.images).toEqual([]);
    expect(out.notices).toEqual([
      'broken.jpg is not an image I can read (corrupt, or not PNG, JPEG, GIF or WebP); it was passed on as a file.',
      'empty.txt is empty (0 bytes); it was not passed on.',
      'huge.bin is 30 MB, over the 1 KB limit (media.max_bytes); it was not passed on.',
      'I could not download lost.jpg; it was not passed on.',
      'grown.bin is 2 KB, over the 1 KB limit (media.max_bytes); it was not passed on.',
    ]);
    expect(out.text.startsWith('hi\n\n')).toBe(true);
    expect(out.text).toContain(corrupt.path ?? '');
  });

  it('a transcription endpoint that fails or hangs: a notice, and a note naming the cached file', async () => {
    const a = file('a.ogg', 'voice a', 'audio', 'audio/ogg');
    const b = file('b.ogg', 'voice b', 'audio', 'audio/ogg');
    openai.server.scriptTranscription({ status: 500, message: 'stt broke' }, { hang: true });
    const out = await prepareInbound(event([a, b]), '', settings({ stt: { ...settings().stt!, timeoutMs: 300 } }));
    expect(out.notices).toEqual([
      'I could not transcribe a.ogg: the transcription endpoint answered HTTP 500: stt broke.',
      'I could not transcribe b.ogg: the transcription endpoint did not answer within 0.3 s.',
    ]);
    expect(out.text).toBe(
      `[audio a.ogg (transcription failed): ${a.path}]\n\n[audio b.ogg (transcription failed): ${b.path}]`,
    );
  });

  it('the default transcript of the fake is used when nothing is scripted', async () => {
    const c = file('c.mp3', 'mp3', 'audio', 'audio/mpeg');
    expect((await prepareInbound(event([c]), 'caption', settings())).text).toBe(
      `[voice] ${DEFAULT_TRANSCRIPT}\n\ncaption`,
    );
  });
});

describe('cleanMediaCache', () => {
  it('removes files older than media.cache_days and keeps the rest', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'hermes-cache-'));
    const old = join(cache, 'old.jpg');
    const fresh = join(cache, 'fresh.jpg');
    writeFileSync(old, 'o');
    writeFileSync(fresh, 'f');
    const now = Date.now();
    utimesSync(old, new Date(now - 8 * 86_400_000), new Date(now - 8 * 86_400_000));
    expect(await cleanMediaCache(cache, 7, now)).toBe(1);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
    expect(await cleanMediaCache(join(cache, 'missing'), 7)).toBe(0);
  });
});

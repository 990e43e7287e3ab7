// Delivery of an answer's MEDIA files against a real outbox: media rows after the text, a 5xx on an
// upload retried like text, a platform without sendMedia and a file gone before its upload both get
// the text naming the file; the row is failed, never silently dropped.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OutboundMedia, OutboundMessage, PlatformAdapter, SendResult } from '@hermes/protocol';
import { asyncSqliteStore, openStore } from '@hermes/store';
import { describe, expect, it } from 'vitest';
import { deliver } from '../src/delivery/deliver.js';

const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, fatal() {}, child: () => silent };

function memoryAdapter(options: { media: boolean; uploads?: SendResult[] }) {
  const texts: OutboundMessage[] = [];
  const uploads: OutboundMedia[] = [];
  const adapter: PlatformAdapter = {
    name: 'memory',
    capabilities: {
      maxMessageLength: 500,
      formatting: 'plain',
      editing: false,
      typing: false,
      threads: false,
      ...(options.media ? { media: { maxUploadBytes: 1000 } } : {}),
    },
    start: async () => {},
    stop: async () => {},
    send: async (message) => {
      texts.push(message);
      return { ok: true, messageIds: [`t${texts.length}`] };
    },
    ...(options.media
      ? {
          sendMedia: async (media: OutboundMedia): Promise<SendResult> => {
            uploads.push(media);
            return options.uploads?.shift() ?? { ok: true, messageIds: [`m${uploads.length}`] };
          },
        }
      : {}),
    format: (text) => text,
    status: () => ({ state: 'connected', since: 0 }),
  };
  return { adapter, texts, uploads };
}

function files() {
  const dir = mkdtempSync(join(tmpdir(), 'hermes-deliver-media-'));
  const png = join(dir, 'a.png');
  writeFileSync(png, 'png');
  return { dir, png };
}

const options = (adapter: PlatformAdapter, store: ReturnType<typeof openStore>, home: string) => ({
  adapters: new Map([['memory', adapter]]),
  commit: asyncSqliteStore(store).commit,
  logger: silent,
  sleep: async () => {},
  media: { hermesHomes: [home], downloadDir: join(home, 'cache'), maxBytes: 1000 },
});

describe('delivery of media', () => {
  it('uploads after the text, one outbox row of kind media; a 503 on the upload is retried', async () => {
    const store = openStore(':memory:');
    const { dir, png } = files();
    const memory = memoryAdapter({
      media: true,
      uploads: [{ ok: false, error: 'transient', message: '503', status: 503 }],
    });
    const result = await deliver(
      options(memory.adapter, store, join(dir, 'home')),
      { platform: 'memory', chatId: 'c' },
      `hi\nMEDIA: ${png}`,
    );
    expect(result).toMatchObject({ sent: 2, failed: 0 });
    expect(memory.texts.map((t) => t.text)).toEqual(['hi']);
    expect(memory.uploads.map((u) => [u.fileName, u.kind, u.mayRepeat])).toEqual([
      ['a.png', 'image', undefined],
      ['a.png', 'image', true],
    ]);
    expect(memory.uploads[0]?.idempotencyKey).toBe(memory.uploads[1]?.idempotencyKey);
    expect(store.outbox.get(2)).toMatchObject({ kind: 'media', text: png, status: 'sent' });
    store.close();
  });

  it('a platform without sendMedia gets a text naming the file; the row is failed', async () => {
    const store = openStore(':memory:');
    const { dir, png } = files();
    const memory = memoryAdapter({ media: false });
    const result = await deliver(
      options(memory.adapter, store, join(dir, 'home')),
      { platform: 'memory', chatId: 'c' },
      `MEDIA: ${png}`,
    );
    expect(result).toMatchObject({ sent: 0, failed: 1 });
    expect(memory.texts.map((t) => t.text)).toEqual(['📎 Could not upload a.png (memory cannot receive files).']);
    expect(store.outbox.get(1)).toMatchObject({ kind: 'media', status: 'failed' });
    store.close();
  });

  it('a file removed before its upload gets the text fallback', async () => {
    const store = openStore(':memory:');
    const { dir, png } = files();
    const memory = memoryAdapter({ media: true });
    const send = options(memory.adapter, store, join(dir, 'home'));
    const commit = send.commit;
    // the file goes between the check and the upload: right after the outbox rows are written
    const wrapped: typeof commit = async (work) => {
      const out = await commit(work);
      if (work.some((write) => write.kind === 'outbox.enqueue')) rmSync(png);
      return out;
    };
    const result = await deliver({ ...send, commit: wrapped }, { platform: 'memory', chatId: 'c' }, `MEDIA: ${png}`);
    expect(result.failed).toBe(1);
    expect(memory.uploads).toHaveLength(0);
    expect(memory.texts.map((t) => t.text)).toEqual(['📎 Could not upload a.png (the file is gone).']);
    store.close();
  });

  it('without media options MEDIA lines stay text (command replies)', async () => {
    const store = openStore(':memory:');
    const memory = memoryAdapter({ media: true });
    const { media: _media, ...plain } = options(memory.adapter, store, tmpdir());
    await deliver(plain, { platform: 'memory', chatId: 'c' }, 'MEDIA: /etc/hostname');
    expect(memory.texts.map((t) => t.text)).toEqual(['MEDIA: /etc/hostname']);
    expect(memory.uploads).toHaveLength(0);
    store.close();
  });
});

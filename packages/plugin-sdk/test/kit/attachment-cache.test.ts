// The kit's attachment cache: a file lands whole or not at all; and the text-or-media event.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isCached, storeCached, textOrMediaEvent } from '../../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'hermes-kit-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('attachment cache', () => {
  it('stores through a partial file renamed into place, creating the folder', async () => {
    const dest = join(dir, 'sub', 'a-photo.jpg');
    expect(await isCached(dest)).toBe(false);
    expect(await storeCached(dest, (partial) => writeFile(partial, 'bytes'))).toBe(dest);
    expect(readFileSync(dest, 'utf8')).toBe('bytes');
    expect(await isCached(dest)).toBe(true);
    expect(await isCached(join(dir, 'sub'))).toBe(false); // a folder is not a cached file
  });

  it('leaves nothing behind when the write fails, and rethrows', async () => {
    const dest = join(dir, 'b-doc.pdf');
    const failing = async (partial: string): Promise<void> => {
      await writeFile(partial, 'half');
      throw new Error('connection reset');
    };
    await expect(storeCached(dest, failing)).rejects.toThrow('connection reset');
    expect(readdirSync(dir).filter((name) => name.startsWith('b-doc'))).toEqual([]);
  });
});

describe('textOrMediaEvent', () => {
  const fields = {
    platform: 'echo',
    messageId: '1',
    source: { platform: 'echo', chatId: 'c', chatType: 'dm' as const, userId: 'u' },
    internal: false,
    receivedAt: 0,
    raw: null,
    text: 'hi',
  };
  it('is media with attachments, text without', () => {
    const attachment = { kind: 'photo' as const, path: '/tmp/x.jpg' };
    expect(textOrMediaEvent(fields, [attachment])).toMatchObject({ kind: 'media', attachments: [attachment] });
    expect(textOrMediaEvent(fields, [])).toEqual({ ...fields, kind: 'text' });
  });
});

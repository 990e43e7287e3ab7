// The kit's attachment description (safe names, kinds) and fetcher (download each, log and keep going).
import { describe, expect, it } from 'vitest';
import { recordingLogger } from '../../../../test/contract/recorders.js';
import { attachmentKind, createAttachmentFetcher, pendingAttachment, safeFileName } from '../../src/index.js';

describe('pendingAttachment', () => {
  it('makes names safe for the cache folder', () => {
    expect(safeFileName('../../etc/passwd')).toBe('passwd');
    expect(safeFileName('C:\\x\\évil name.pdf')).toBe('_vil_name.pdf');
    expect(safeFileName('...')).toBe('file');
    expect(safeFileName(`${'a'.repeat(150)}.txt`)).toHaveLength(100);
  });

  it('takes the kind from the MIME type unless the platform says it', () => {
    expect(['image/webp', 'AUDIO/ogg', 'video/mp4', 'application/zip', undefined].map(attachmentKind)).toEqual([
      'photo',
      'audio',
      'video',
      'document',
      'document',
    ]);
    expect(pendingAttachment({ name: 'a b.png', mimeType: 'image/png', size: 3 })).toEqual({
      fileName: 'a_b.png',
      attachment: { kind: 'photo', path: null, fileName: 'a_b.png', mimeType: 'image/png', size: 3 },
    });
    expect(pendingAttachment({ name: 'voice.ogg', kind: 'audio' })).toEqual({
      fileName: 'voice.ogg',
      attachment: { kind: 'audio', path: null, fileName: 'voice.ogg' },
    });
  });
});

describe('createAttachmentFetcher', () => {
  const file = (id: string) => ({ id, ...pendingAttachment({ name: `${id}.txt` }) });

  it('fills in each path; a failed file is logged with its ids and left with path null', async () => {
    const { logger, lines } = recordingLogger();
    const fetcher = createAttachmentFetcher<ReturnType<typeof file>>({
      platform: 'echo',
      logger,
      download: async (f) => {
        if (f.id === 'b') throw new Error('HTTP 500');
        return `/cache/${f.fileName}`;
      },
    });
    const files = [file('a'), file('b'), file('c')];
    const done = await fetcher.fetchAll(files, new AbortController().signal, (f) => ({ fileId: f.id }));
    expect(done).toBe(true);
    expect(files.map((f) => f.attachment.path)).toEqual(['/cache/a.txt', null, '/cache/c.txt']);
    expect(lines).toEqual([
      {
        level: 'warn',
        obj: { error: 'HTTP 500', fileId: 'b' },
        msg: 'echo: attachment download failed; delivering without it',
      },
    ]);
  });

  it('stops at an aborted download and says so, without a warning', async () => {
    const { logger, lines } = recordingLogger();
    const controller = new AbortController();
    const tried: string[] = [];
    const fetcher = createAttachmentFetcher<ReturnType<typeof file>>({
      platform: 'echo',
      logger,
      download: async (f) => {
        tried.push(f.id);
        controller.abort();
        throw new Error('aborted');
      },
    });
    expect(await fetcher.fetchAll([file('a'), file('b')], controller.signal, () => ({}))).toBe(false);
    expect([tried, lines]).toEqual([['a'], []]);
  });
});

// Albums: consecutive updates of one media_group_id in one chat are one delivery; the webhook
// collector holds an album's requests for a window and delivers them once.
import type { Update } from 'grammy/types';
import { describe, expect, it } from 'vitest';
import { createAlbumCollector, groupAlbums } from '../album.js';

function update(id: number, chatId: number, group?: string): Update {
  return {
    update_id: id,
    message: {
      message_id: id,
      date: 0,
      chat: { id: chatId, type: 'private', first_name: 'Ada' },
      from: { id: chatId, is_bot: false, first_name: 'Ada' },
      photo: [{ file_id: `f${id}`, file_unique_id: `u${id}`, width: 1, height: 1 }],
      ...(group === undefined ? {} : { media_group_id: group }),
    },
  } as Update;
}

const ids = (groups: Update[][]) => groups.map((g) => g.map((u) => u.update_id));

describe('groupAlbums', () => {
  it('joins consecutive members of one album in one chat, and nothing else', () => {
    const batch = [
      update(1, 5),
      update(2, 5, 'A'),
      update(3, 5, 'A'),
      update(4, 6, 'A'),
      update(5, 5, 'B'),
      update(6, 5),
    ];
    expect(ids(groupAlbums(batch))).toEqual([[1], [2, 3], [4], [5], [6]]);
  });
});

describe('createAlbumCollector', () => {
  it('delivers an album once, in update order, and answers every request with that delivery', async () => {
    const collect = createAlbumCollector(30);
    const delivered: number[][] = [];
    const deliver = async (updates: readonly Update[]) => {
      delivered.push(updates.map((u) => u.update_id));
    };
    await Promise.all([
      collect(update(8, 5, 'G'), deliver),
      collect(update(7, 5, 'G'), deliver),
      collect(update(9, 5), deliver),
    ]);
    expect(delivered).toEqual([[9], [7, 8]]);
  });

  it('a failed delivery fails every request of the album (Telegram then sends them again)', async () => {
    const collect = createAlbumCollector(10);
    const deliver = async () => {
      throw new Error('sink refused');
    };
    const results = await Promise.allSettled([
      collect(update(1, 5, 'G'), deliver),
      collect(update(2, 5, 'G'), deliver),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});

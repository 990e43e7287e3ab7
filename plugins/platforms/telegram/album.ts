/**
 * Telegram albums: each photo or file of an album arrives as its own update with one
 * `media_group_id`. Consecutive updates of one album in a getUpdates batch are delivered as one
 * message (the caption of whichever member has one, every member's files), accepted once with the
 * offset after its last update, so a crash leaves the whole album to be fetched again.
 */
import type { Update } from 'grammy/types';
import type { NormalizedUpdate } from './normalize.js';

const albumKey = (update: Update): string | undefined => {
  const message = update.message;
  return message?.media_group_id === undefined ? undefined : `${message.chat.id}:${message.media_group_id}`;
};

/** Splits a batch into deliveries: an album's consecutive updates together, every other update alone. */
export function groupAlbums(updates: readonly Update[]): Update[][] {
  const groups: Update[][] = [];
  let lastKey: string | undefined;
  for (const update of updates) {
    const key = albumKey(update);
    const last = groups.at(-1);
    if (key !== undefined && key === lastKey && last !== undefined) last.push(update);
    else groups.push([update]);
    lastKey = key;
  }
  return groups;
}

/** One message from an album's normalized members: the first member's id and source, every file, the caption. */
export function mergeAlbum(members: readonly NormalizedUpdate[]): NormalizedUpdate | null {
  const [first] = members;
  if (first === undefined) return null;
  if (members.length === 1) return first;
  const files = members.flatMap((m) => m.files);
  const text = members.map((m) => m.event.text).find((t) => t.trim() !== '') ?? '';
  const mentioned = members.some((m) => m.event.source.mentioned === true);
  const event = {
    ...first.event,
    kind: 'media' as const,
    text,
    source: { ...first.event.source, mentioned },
    attachments: files.map((f) => f.attachment),
    raw: members.map((m) => m.event.raw),
  };
  return { event, files };
}

/** How long webhook mode waits for an album's other updates after its first (each arrives as its own POST). */
export const ALBUM_WINDOW_MS = 500;

/**
 * Webhook mode: an album's updates, POSTed one by one, are held for ALBUM_WINDOW_MS after the first
 * and then delivered as one; every request of the album answers when that delivery is accepted (or
 * fails, so Telegram sends them all again). Updates outside an album go straight through.
 */
export function createAlbumCollector(
  windowMs: number = ALBUM_WINDOW_MS,
): (update: Update, deliver: (updates: readonly Update[]) => Promise<void>) => Promise<void> {
  const open = new Map<string, { updates: Update[]; done: Promise<void> }>();
  return (update, deliver) => {
    const key = albumKey(update);
    if (key === undefined) return deliver([update]);
    const existing = open.get(key);
    if (existing !== undefined) {
      existing.updates.push(update);
      return existing.done;
    }
    const updates = [update];
    const done = new Promise<void>((resolve) => setTimeout(resolve, windowMs)).then(() => {
      open.delete(key);
      return deliver(updates.sort((a, b) => a.update_id - b.update_id));
    });
    open.set(key, { updates, done });
    return done;
  };
}

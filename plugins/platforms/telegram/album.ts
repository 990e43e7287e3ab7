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

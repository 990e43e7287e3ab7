/**
 * What the adapter knows about its rooms, from the sync and a few calls: how many people are joined
 * (exactly two, the bot and one other: a direct chat; the sync's room summary says it, else
 * `GET /rooms/{id}/joined_members` once), members' display names, the events the bot sent (a reply
 * to one addresses it), and the threads it answered in (persisted in platform state, so follow-ups
 * there still address it after a restart). Every cache is bounded.
 */
import type { PlatformContext } from '@hermes/protocol';
import { apiPath, isRecord, MatrixApiError, type MatrixClient } from './client.js';
import type { RoomView } from './events.js';

const CACHE_MAX = 10_000;

type Json = Record<string, unknown>;

/** A Map that drops its oldest entry past `max`. */
function boundedSet<K, V>(map: Map<K, V>, key: K, value: V, max = CACHE_MAX): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value as K);
}

export interface RoomDirectory {
  /** reads a joined room of a sync answer: its summary, and the member events of its state and timeline */
  note(roomId: string, room: Json): void;
  /** the view of a room for reading its events (asks the server for its members once when the sync did not say) */
  view(roomId: string, signal: AbortSignal): Promise<RoomView>;
  /** an event the bot sent */
  rememberSent(roomId: string, eventId: string): void;
  /** the bot answered in this thread */
  markThread(roomId: string, root: string): void;
  /** the bot left the room */
  forget(roomId: string): void;
}

export function createRoomDirectory(client: MatrixClient, state: PlatformContext['state']): RoomDirectory {
  const memberCounts = new Map<string, number>();
  const names = new Map<string, string>();
  const sentEvents = new Map<string, string>();
  const threads = new Map<string, true>();
  const threadKey = (roomId: string, root: string) => `thread:${roomId}:${root}`;

  const noteMember = (roomId: string, event: unknown): void => {
    if (!isRecord(event) || event.type !== 'm.room.member' || typeof event.state_key !== 'string') return;
    const content = isRecord(event.content) ? event.content : {};
    if (content.membership === 'join' && typeof content.displayname === 'string' && content.displayname !== '') {
      boundedSet(names, `${roomId}|${event.state_key}`, content.displayname.slice(0, 100));
    }
    memberCounts.delete(roomId); // someone came or went: counted again when needed, unless the summary says
  };

  /** The view of a room with `count` joined members. */
  const viewOf = (roomId: string, count: number): RoomView => ({
    roomId,
    direct: count === 2,
    displayName: (userId) => names.get(`${roomId}|${userId}`),
    isBotEvent: (eventId) => (sentEvents.get(eventId) === roomId ? true : undefined),
    botInThread: (root) => {
      const key = threadKey(roomId, root);
      if (threads.has(key)) return true;
      if (state.get(key) === undefined) return false;
      boundedSet(threads, key, true);
      return true;
    },
  });

  return {
    note(roomId, room) {
      const events = (section: unknown): unknown[] =>
        isRecord(section) && Array.isArray(section.events) ? section.events : [];
      for (const event of [...events(room.state), ...events(room.timeline)]) noteMember(roomId, event);
      const summary = isRecord(room.summary) ? room.summary : {};
      const joined = summary['m.joined_member_count'];
      if (typeof joined === 'number' && Number.isSafeInteger(joined) && joined >= 0) {
        boundedSet(memberCounts, roomId, joined);
      }
    },
    async view(roomId, signal) {
      let count = memberCounts.get(roomId);
      if (count === undefined) {
        let answer: unknown;
        try {
          answer = await client.request('GET', apiPath('/_matrix/client/v3/rooms/{}/joined_members', roomId), {
            signal,
          });
        } catch (error) {
          // a server that does not answer: the batch is read again; one that refuses: not a direct chat
          if (!(error instanceof MatrixApiError) || error.status === null) throw error;
          answer = undefined;
        }
        if (answer === undefined) return viewOf(roomId, 3);
        const joined = isRecord(answer) && isRecord(answer.joined) ? answer.joined : {};
        count = Object.keys(joined).length;
        for (const [userId, member] of Object.entries(joined)) {
          if (isRecord(member) && typeof member.display_name === 'string' && member.display_name !== '') {
            boundedSet(names, `${roomId}|${userId}`, member.display_name.slice(0, 100));
          }
        }
        boundedSet(memberCounts, roomId, count);
      }
      return viewOf(roomId, count);
    },
    rememberSent(roomId, eventId) {
      boundedSet(sentEvents, eventId, roomId);
    },
    markThread(roomId, root) {
      const key = threadKey(roomId, root);
      if (threads.has(key)) return;
      boundedSet(threads, key, true);
      state.set(key, '1');
    },
    forget(roomId) {
      memberCounts.delete(roomId);
    },
  };
}

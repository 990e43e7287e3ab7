// The state of the fake Matrix homeserver (test/fakes/matrix-server.ts) and what is read from it:
// the rooms and the event log that /sync answers are cut from, the events the bot posted, and the
// HTTP helpers answering the Client-Server API's JSON and its standard error bodies.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MatrixEvent, MatrixPerson, MessageOptions } from './matrix-events.js';
import type { FakeMatrixControl } from './matrix-scripts.js';

export interface BotEvent {
  eventId: string;
  roomId: string;
  type: string;
  content: Record<string, unknown>;
  txnId: string;
  redacted: boolean;
}

export interface FakeMatrix extends FakeMatrixControl {
  url: string;
  serverName: string;
  accessToken: string;
  bot: MatrixPerson;
  requests: { method: string; path: string }[];
  syncs: SyncRequest[];
  /** every event the bot posted (a repeated transaction once), in order */
  sent: BotEvent[];
  redactions: { roomId: string; eventId: string }[];
  typing: { roomId: string; typing: boolean }[];
  uploads: { mxc: string; contentType: string; fileName: string | undefined; data: Buffer }[];
  joins: string[];
  /** sends answered from the transaction cache (a repeat the server refused to post again) */
  txnRepeats(): number;
  /** a room with the bot and `person` (a direct chat) */
  directRoom(person: MatrixPerson): string;
  /** a room with the bot and `people` */
  groupRoom(people: MatrixPerson[], options?: { encrypted?: boolean }): string;
  /** `from` invites the bot to a new room with them in it; resolves the room id */
  invite(from: MatrixPerson, options?: { direct?: boolean }): string;
  /** a message from `from` in `roomId` */
  message(roomId: string, from: MatrixPerson, text: string, options?: MessageOptions): MatrixEvent;
  /** a file from `from`: stored in the content repository, then a message carrying its mxc:// URI */
  file(
    roomId: string,
    from: MatrixPerson,
    caption: string,
    file: {
      data: Buffer;
      mimeType: string;
      name: string;
      msgtype: 'm.image' | 'm.audio' | 'm.file' | 'm.video';
      voice?: boolean;
    },
  ): MatrixEvent;
  /** an encrypted message from `from` */
  encrypted(roomId: string, from: MatrixPerson): MatrixEvent;
  /** any timeline entry, as is (bad input) */
  push(roomId: string, event: unknown): void;
  /** the event again at a later sync position (a redelivery) */
  redeliver(roomId: string, event: MatrixEvent): void;
  /** the bot's m.room.message events that are not edits */
  messages(): BotEvent[];
  /** the bot's edits (`m.replace`): the edited event's id and the new content */
  edits(): { target: string; content: Record<string, unknown> }[];
  /** the bot's reactions on `eventId` now (its keys, redacted ones gone) */
  reactionsOn(eventId: string): string[];
  /** destroys the connections of the long polls waiting now */
  dropSyncs(): void;
  /** long polls begun (`since` and a timeout) and open now */
  syncsOpened(): number;
  pendingSyncs(): number;
  reset(): void;
  close(): Promise<void>;
}

export interface SyncRequest {
  since: string | undefined;
  timeout: string | undefined;
  filter: string | undefined;
  setPresence: string | undefined;
}

export interface Room {
  members: Map<string, string>;
  encrypted: boolean;
}

export interface LogEntry {
  seq: number;
  roomId: string;
  event?: MatrixEvent;
  /** the bot's invite to the room: `[inviter, direct]` */
  invite?: [MatrixPerson, boolean];
}

export const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};
export const error = (
  res: ServerResponse,
  status: number,
  errcode: string,
  message: string,
  extra: Record<string, unknown> = {},
) => json(res, status, { errcode, error: message, ...extra });

export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The sync answer from position `since` (exclusive) up to `position`. */
export function syncBody(at: {
  log: readonly LogEntry[];
  rooms: ReadonlyMap<string, Room>;
  bot: MatrixPerson;
  since: number;
  position: number;
  /** the filter's `room.timeline.limit`: a room with more new events gets its newest ones, `limited` */
  limit: number;
}): Record<string, unknown> {
  const { log, rooms, bot, since } = at;
  const timelines = new Map<string, LogEntry[]>();
  const join: Record<string, unknown> = {};
  const invite: Record<string, unknown> = {};
  for (const entry of log) {
    if (entry.seq <= since) continue;
    const room = rooms.get(entry.roomId);
    if (entry.invite !== undefined) {
      if (room?.members.has(bot.userId)) continue;
      const [inviter, direct] = entry.invite;
      invite[entry.roomId] = {
        invite_state: {
          events: [
            {
              type: 'm.room.member',
              state_key: inviter.userId,
              sender: inviter.userId,
              content: { membership: 'join', displayname: inviter.displayName },
            },
            {
              type: 'm.room.member',
              state_key: bot.userId,
              sender: inviter.userId,
              content: { membership: 'invite', ...(direct ? { is_direct: true } : {}) },
            },
          ],
        },
      };
      continue;
    }
    if (room === undefined || !room.members.has(bot.userId)) continue;
    const list = timelines.get(entry.roomId) ?? [];
    list.push(entry);
    timelines.set(entry.roomId, list);
  }
  for (const [roomId, list] of timelines) {
    const kept = list.slice(-at.limit);
    join[roomId] = {
      // prev_batch: the position before the first event given, from where /messages pages back
      timeline: {
        events: kept.map((e) => e.event),
        limited: kept.length < list.length,
        prev_batch: `s${(kept[0]?.seq ?? 1) - 1}`,
      },
      state: { events: [] },
      summary: { 'm.joined_member_count': rooms.get(roomId)?.members.size ?? 0 },
      ephemeral: { events: [] },
      account_data: { events: [] },
      unread_notifications: { highlight_count: 0, notification_count: 0 },
    };
  }
  return {
    next_batch: `s${at.position}`,
    rooms: { join, invite, leave: {} },
    presence: { events: [] },
    account_data: { events: [] },
  };
}

/**
 * `GET /rooms/{id}/messages` backwards (`dir=b`): the room's events at or before position `from`
 * and after `to`, newest first, at most `limit`; `end` is where the next page starts, absent when
 * there is nothing more.
 */
export function messagesPage(
  log: readonly LogEntry[],
  roomId: string,
  page: { from: number; to: number; limit: number },
): Record<string, unknown> {
  const matching = log.filter(
    (e) => e.roomId === roomId && e.event !== undefined && e.seq <= page.from && e.seq > page.to,
  );
  const chunk = matching.reverse().slice(0, page.limit);
  const last = chunk.at(-1);
  const more = last !== undefined && matching.length > chunk.length;
  return {
    start: `s${page.from}`,
    chunk: chunk.map((e) => e.event),
    ...(more && last !== undefined ? { end: `s${last.seq - 1}` } : {}),
  };
}

/** The bot's m.room.message events that are not edits. */
export const botMessages = (sent: readonly BotEvent[]): BotEvent[] =>
  sent.filter((e) => e.type === 'm.room.message' && relationOf(e).rel_type !== 'm.replace');

/** The bot's edits (`m.replace`): the edited event's id and the new content. */
export const botEdits = (sent: readonly BotEvent[]): { target: string; content: Record<string, unknown> }[] =>
  sent
    .filter((e) => relationOf(e).rel_type === 'm.replace')
    .map((e) => ({
      target: String(relationOf(e).event_id),
      content: (e.content['m.new_content'] ?? {}) as Record<string, unknown>,
    }));

/** The bot's reactions on `eventId` now (their keys; redacted ones gone). */
export const botReactionsOn = (sent: readonly BotEvent[], eventId: string): string[] =>
  sent
    .filter((e) => e.type === 'm.reaction' && !e.redacted && relationOf(e).event_id === eventId)
    .map((e) => String(relationOf(e).key));

const relationOf = (e: BotEvent): Record<string, unknown> =>
  (e.content['m.relates_to'] ?? {}) as Record<string, unknown>;

/** The `room.timeline.limit` of a sync's inline filter (the spec's default, 10, without one). */
export function timelineLimit(filter: string | undefined): number {
  try {
    const limit = (JSON.parse(filter ?? '{}') as { room?: { timeline?: { limit?: unknown } } }).room?.timeline?.limit;
    return typeof limit === 'number' && limit > 0 ? limit : 10;
  } catch {
    return 10;
  }
}

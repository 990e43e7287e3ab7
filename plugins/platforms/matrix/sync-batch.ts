/**
 * One `/sync` answer read into what the gateway takes, in the server's order: invites joined (when
 * `auto_join`), left rooms forgotten, each joined room's timeline read event by event (what a
 * limited timeline left out fetched first, gap.ts); a message's
 * files fetched, then the message handed to the sink and awaited before the next. The first sync
 * of a fresh install (no token yet) only looks: earlier messages are history, not questions.
 */
import type { AttachmentFetcher } from '@hermes/plugin-sdk';
import type { InboundSink, Logger } from '@hermes/protocol';
import { apiPath, isRecord, MatrixApiError, type MatrixClient } from './client.js';
import { type Inbound, type PendingMatrixFile, type RoomView, readTimelineEvent } from './events.js';
import { missedEvents } from './gap.js';
import type { BotIdentity } from './identity.js';
import type { RoomDirectory } from './rooms.js';

type Json = Record<string, unknown>;

export interface BatchDeps {
  client: MatrixClient;
  sink: InboundSink;
  logger: Logger;
  rooms: RoomDirectory;
  attachments: AttachmentFetcher<PendingMatrixFile>;
  autoJoin: boolean;
  /** an encrypted event in a room: the adapter says once there that it cannot read it */
  onEncrypted(roomId: string, sender: string): Promise<void>;
  /** a message was accepted in this room (typing is shown only where someone wrote) */
  onMessage?: (roomId: string) => void;
  now: () => number;
  signal: AbortSignal;
}

const ROOM_ID = /^![^\s:]+:\S+$/;

const entries = (value: unknown): [string, unknown][] => (isRecord(value) ? Object.entries(value) : []);
const timelineOf = (room: Json): unknown[] =>
  isRecord(room.timeline) && Array.isArray(room.timeline.events) ? room.timeline.events : [];

/** Joins a room the bot was invited to, once per process (a refused join is logged, not retried). */
async function join(roomId: string, invite: unknown, bot: BotIdentity, deps: BatchDeps, tried: Set<string>) {
  if (tried.has(roomId)) return;
  tried.add(roomId);
  const events = isRecord(invite) && isRecord(invite.invite_state) ? invite.invite_state.events : undefined;
  const own = Array.isArray(events)
    ? events.find((e) => isRecord(e) && e.type === 'm.room.member' && e.state_key === bot.userId)
    : undefined;
  const inviter = isRecord(own) && typeof own.sender === 'string' ? own.sender : 'someone';
  if (!deps.autoJoin) {
    deps.logger.info({ roomId, inviter }, 'matrix: invited to a room; not joined (auto_join is off)');
    return;
  }
  try {
    await deps.client.request('POST', apiPath('/_matrix/client/v3/join/{}', roomId), { body: {}, signal: deps.signal });
    deps.logger.info({ roomId, inviter }, `matrix: joined ${roomId} (invited by ${inviter})`);
  } catch (error) {
    if (deps.signal.aborted) throw error;
    deps.logger.warn({ roomId, inviter, error: String(error) }, 'matrix: could not join a room it was invited to');
  }
}

/** Whether the bot sent `eventId` (a reply the room view could not place), asked of the server. */
async function sentByBot(roomId: string, eventId: string, bot: BotIdentity, deps: BatchDeps): Promise<boolean> {
  try {
    const event = await deps.client.request('GET', apiPath('/_matrix/client/v3/rooms/{}/event/{}', roomId, eventId), {
      signal: deps.signal,
    });
    return isRecord(event) && event.sender === bot.userId;
  } catch (error) {
    if (!(error instanceof MatrixApiError) || error.status === null) throw error;
    return false; // not found, not visible: not the bot's as far as anyone can tell
  }
}

async function deliver(inbound: Extract<Inbound, { kind: 'message' }>, bot: BotIdentity, deps: BatchDeps) {
  const { event, files } = inbound;
  const source = event.source;
  if (inbound.unknownReplyTo !== undefined && source.chatType !== 'dm' && !source.mentioned) {
    if (await sentByBot(source.chatId, inbound.unknownReplyTo, bot, deps)) source.repliedToBot = true;
  }
  const fetched = await deps.attachments.fetchAll(
    files,
    deps.signal,
    (file) => ({ eventId: event.messageId, mxc: `mxc://${file.server}/${file.mediaId}` }),
    source.userId, // a stranger's files are not stored
  );
  if (!fetched) throw new Error(`matrix: stopped before event ${event.messageId} was delivered`);
  await deps.sink.accept(event);
  deps.onMessage?.(source.chatId);
}

/** The view of a room whose facts were not needed (no message in the batch to read with it). */
const unread = (roomId: string): RoomView => ({
  roomId,
  direct: false,
  displayName: () => undefined,
  isBotEvent: () => undefined,
  botInThread: () => false,
});

/** Reads one joined room's new events. */
async function readRoom(roomId: string, room: Json, since: string, bot: BotIdentity, deps: BatchDeps): Promise<void> {
  const limited = isRecord(room.timeline) && room.timeline.limited === true;
  const missed = limited && isRecord(room.timeline) ? await missedEvents(roomId, room.timeline, since, deps) : [];
  const events = [...missed, ...timelineOf(room)];
  let view: RoomView | undefined;
  for (const raw of events) {
    if (deps.signal.aborted) return;
    const wanted = isRecord(raw) && (raw.type === 'm.room.message' || raw.type === 'm.room.encrypted');
    if (wanted && raw.sender !== bot.userId) view ??= await deps.rooms.view(roomId, deps.signal);
    const inbound = readTimelineEvent(raw, view ?? unread(roomId), bot, deps.now());
    const eventId = isRecord(raw) && typeof raw.event_id === 'string' ? raw.event_id.slice(0, 100) : undefined;
    if (inbound.kind === 'skip') {
      const fields = { roomId, ...(eventId === undefined ? {} : { eventId }) };
      if (inbound.routine) deps.logger.debug(fields, `matrix: skipped ${inbound.reason}`);
      else deps.logger.info(fields, `matrix: skipped ${inbound.reason}`);
    } else if (inbound.kind === 'encrypted') {
      await deps.onEncrypted(roomId, inbound.sender);
    } else {
      await deliver(inbound, bot, deps);
    }
  }
}

/**
 * Reads a sync answer asked `since` a token; without one it is the first sync of a fresh install
 * (nothing answered). Throws when a message could not be handed over.
 */
export async function readSyncBatch(
  answer: Json,
  since: string | undefined,
  bot: BotIdentity,
  deps: BatchDeps,
  triedJoins: Set<string>,
): Promise<void> {
  const rooms = isRecord(answer.rooms) ? answer.rooms : {};
  for (const [roomId, invite] of entries(rooms.invite)) {
    if (ROOM_ID.test(roomId)) await join(roomId, invite, bot, deps, triedJoins);
  }
  for (const [roomId] of entries(rooms.leave)) deps.rooms.forget(roomId);
  let history = 0;
  for (const [roomId, room] of entries(rooms.join)) {
    if (!ROOM_ID.test(roomId) || !isRecord(room)) {
      deps.logger.info({ roomId: roomId.slice(0, 100) }, 'matrix: skipped a joined room that is not one (malformed)');
      continue;
    }
    deps.rooms.note(roomId, room);
    if (since === undefined) history += timelineOf(room).length;
    else await readRoom(roomId, room, since, bot, deps);
  }
  if (since === undefined && history > 0) {
    deps.logger.info({ events: history }, 'matrix: first sync: earlier events are history and are not answered');
  }
}

// A fake Matrix homeserver on 127.0.0.1 speaking the Client-Server API as Synapse does, for the one
// bot account it knows (its access token in `Authorization: Bearer`, 401 M_UNKNOWN_TOKEN for any
// other, M_MISSING_TOKEN without): GET /versions, whoami, profile; GET /sync with `since`,
// `timeout` (a long poll answered as soon as an event arrives), `filter` and `set_presence`
// recorded, `next_batch` tokens `s<position>`, joined rooms with their timeline and room summary
// (`m.joined_member_count`), invites with their stripped state; PUT /rooms/{id}/send/{type}/{txnId}
// with transaction ids remembered per access token and path, as Synapse's transaction cache does (a
// repeat is answered with the first event's id and posts nothing); redactions, typing, joins,
// joined_rooms, joined_members, GET /rooms/{id}/event/{id}; the content repository: POST
// /_matrix/media/v3/upload and downloads through the authenticated v1.11 endpoint and the older
// unauthenticated one (which can be frozen: 404 M_NOT_FOUND, as matrix.org answers). Errors are
// the standard `{ errcode, error }` bodies, 429 with `retry_after_ms`. The bot's own events come
// back to it in /sync like every client's.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import {
  encryptedEvent,
  eventIdOf,
  type MatrixEvent,
  type MatrixPerson,
  memberEvent,
  messageEvent,
} from './matrix-events.js';
import { matrixControl, type Scripts } from './matrix-scripts.js';
import {
  type BotEvent,
  botEdits,
  botMessages,
  botReactionsOn,
  error,
  type FakeMatrix,
  json,
  type LogEntry,
  messagesPage,
  type Room,
  readBody,
  type SyncRequest,
  syncBody,
  timelineLimit,
} from './matrix-state.js';

export type { MatrixPerson } from './matrix-events.js';
export type { BotEvent, FakeMatrix, SyncRequest } from './matrix-state.js';

export async function startFakeMatrix(
  options: { serverName?: string; freezeLegacyMedia?: boolean; versions?: string[] } = {},
): Promise<FakeMatrix> {
  const serverName = options.serverName ?? 'hermes.test';
  const accessToken = `syt_${randomBytes(12).toString('base64url')}`;
  const bot: MatrixPerson = { userId: `@hermes:${serverName}`, displayName: 'Hermes' };
  const rooms = new Map<string, Room>();
  const log: LogEntry[] = [];
  const txns = new Map<string, string>();
  const media = new Map<string, { data: Buffer; contentType: string; fileName: string | undefined }>();
  const scripts: Scripts = matrixControl();
  const state = {
    requests: [] as FakeMatrix['requests'],
    syncs: [] as SyncRequest[],
    sent: [] as BotEvent[],
    redactions: [] as FakeMatrix['redactions'],
    typing: [] as FakeMatrix['typing'],
    uploads: [] as FakeMatrix['uploads'],
    joins: [] as string[],
  };
  const sockets = new Set<Socket>();
  const polls = new Set<ServerResponse>();
  const waiters = new Set<() => void>();
  let seq = 0;
  let repeats = 0;
  let opened = 0;

  scripts.onRaw = () => {
    for (const wake of [...waiters]) wake();
  };
  const append = (entry: Omit<LogEntry, 'seq'>) => {
    seq += 1;
    log.push({ seq, ...entry });
    for (const wake of [...waiters]) wake();
  };
  const newRoom = (people: MatrixPerson[], encrypted = false): string => {
    const roomId = `!${randomBytes(9).toString('base64url')}:${serverName}`;
    rooms.set(roomId, {
      members: new Map([
        [bot.userId, bot.displayName],
        ...people.map((p) => [p.userId, p.displayName] as [string, string]),
      ]),
      encrypted,
    });
    return roomId;
  };
  const storeMedia = (data: Buffer, contentType: string, fileName: string | undefined): string => {
    const id = randomBytes(12).toString('base64url');
    media.set(`${serverName}/${id}`, { data, contentType, fileName });
    return `mxc://${serverName}/${id}`;
  };

  async function sync(req: IncomingMessage, res: ServerResponse, query: URLSearchParams): Promise<void> {
    const request: SyncRequest = {
      since: query.get('since') ?? undefined,
      timeout: query.get('timeout') ?? undefined,
      filter: query.get('filter') ?? undefined,
      setPresence: query.get('set_presence') ?? undefined,
    };
    state.syncs.push(request);
    const answerRaw = (raw: string): void => {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(raw.replaceAll('"$SINCE"', JSON.stringify(request.since ?? 's0')));
    };
    const raw = scripts.takeSyncRaw();
    if (raw !== undefined) return answerRaw(raw);
    if (scripts.syncRefusal !== null) return error(res, scripts.syncRefusal, 'M_UNKNOWN', 'Internal server error');
    const since = request.since === undefined ? 0 : /^s(\d+)$/.exec(request.since)?.[1];
    if (since === undefined) return error(res, 400, 'M_INVALID_PARAM', `Invalid stream token: ${request.since}`);
    const from = Number(since);
    const timeout = Math.min(Number(request.timeout ?? 0) || 0, 60_000);
    if (request.since !== undefined && timeout > 0) {
      opened += 1;
      polls.add(res);
      res.on('close', () => polls.delete(res));
      if (log.at(-1) === undefined || (log.at(-1)?.seq ?? 0) <= from) {
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, timeout);
          waiters.add(wake);
          res.on('close', wake);
        });
      }
      polls.delete(res);
      if (res.destroyed || req.destroyed) return;
      const late = scripts.takeSyncRaw();
      if (late !== undefined) return answerRaw(late);
    }
    json(res, 200, syncBody({ log, rooms, bot, since: from, position: seq, limit: timelineLimit(request.filter) }));
  }

  function send(res: ServerResponse, roomId: string, type: string, txnId: string, body: Buffer, path: string) {
    const room = rooms.get(roomId);
    if (room === undefined || !room.members.has(bot.userId))
      return error(res, 403, 'M_FORBIDDEN', `User ${bot.userId} not in room ${roomId}`);
    const cached = txns.get(`${accessToken}|${path}`);
    if (cached !== undefined) {
      repeats += 1;
      return json(res, 200, { event_id: cached });
    }
    let content: unknown;
    try {
      content = JSON.parse(body.toString('utf8'));
    } catch {
      return error(res, 400, 'M_NOT_JSON', 'Content not JSON.');
    }
    if (typeof content !== 'object' || content === null || Array.isArray(content))
      return error(res, 400, 'M_BAD_JSON', 'Content must be a JSON object.');
    if (body.length > 65_536) return error(res, 413, 'M_TOO_LARGE', 'event too large');
    const c = content as Record<string, unknown>;
    const relation = (c['m.relates_to'] ?? {}) as Record<string, unknown>;
    const script = scripts.forSend(
      type === 'm.room.message' && relation.rel_type === 'm.replace'
        ? 'edit'
        : type === 'm.room.message'
          ? 'message'
          : 'other',
    );
    if (script?.kind === 'rate')
      return error(res, 429, 'M_LIMIT_EXCEEDED', 'Too Many Requests', { retry_after_ms: script.ms });
    if (script?.kind === 'refuse-edit') return error(res, 400, 'M_UNKNOWN', 'Cannot edit an event that was redacted');
    if (script?.kind === 'status' && !script.posted)
      return error(res, script.status, 'M_UNKNOWN', 'Internal server error');
    const eventId = eventIdOf();
    txns.set(`${accessToken}|${path}`, eventId);
    state.sent.push({ eventId, roomId, type, content: c, txnId, redacted: false });
    append({
      roomId,
      event: {
        type,
        event_id: eventId,
        sender: bot.userId,
        origin_server_ts: Date.now(),
        content: c,
        unsigned: { transaction_id: txnId },
      },
    });
    if (script?.kind === 'status') return error(res, script.status, 'M_UNKNOWN', 'Internal server error'); // posted, then failed
    json(res, 200, { event_id: eventId });
  }

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    const method = req.method ?? 'GET';
    state.requests.push({ method, path });
    const seg = (i: number) => decodeURIComponent(path.split('/')[i] ?? '');
    if (path === '/_matrix/client/versions')
      return json(res, 200, {
        versions: options.versions ?? ['v1.9', 'v1.10', 'v1.11', 'v1.12'],
        unstable_features: {},
      });
    const legacyMedia = /^\/_matrix\/media\/v3\/download\/([^/]+)\/([^/]+)/.exec(path);
    if (legacyMedia !== null && method === 'GET') {
      if (options.freezeLegacyMedia) return error(res, 404, 'M_NOT_FOUND', 'Not found');
      const file = media.get(`${decodeURIComponent(legacyMedia[1] ?? '')}/${decodeURIComponent(legacyMedia[2] ?? '')}`);
      if (file === undefined) return error(res, 404, 'M_NOT_FOUND', 'Not found');
      return void res
        .writeHead(200, { 'content-type': file.contentType, 'content-length': String(file.data.length) })
        .end(file.data);
    }
    const auth =
      req.headers.authorization ??
      (url.searchParams.get('access_token') === null ? undefined : `Bearer ${url.searchParams.get('access_token')}`);
    if (auth === undefined) return error(res, 401, 'M_MISSING_TOKEN', 'Missing access token');
    if (auth !== `Bearer ${accessToken}`)
      return error(res, 401, 'M_UNKNOWN_TOKEN', 'Invalid access token passed.', { soft_logout: false });
    const body = method === 'GET' ? Buffer.alloc(0) : await readBody(req);
    const parts = path.split('/');
    if (method === 'GET' && path === '/_matrix/client/v3/account/whoami')
      return json(res, 200, { user_id: bot.userId, device_id: 'HERMESBOT', is_guest: false });
    if (method === 'GET' && /^\/_matrix\/client\/v3\/profile\/[^/]+(\/displayname)?$/.test(path)) {
      return seg(5) === bot.userId
        ? json(res, 200, { displayname: bot.displayName })
        : error(res, 404, 'M_NOT_FOUND', 'Profile was not found');
    }
    if (method === 'GET' && path === '/_matrix/client/v3/sync') return sync(req, res, url.searchParams);
    if (method === 'GET' && path === '/_matrix/client/v3/joined_rooms') {
      return json(res, 200, {
        joined_rooms: [...rooms].filter(([, r]) => r.members.has(bot.userId)).map(([id]) => id),
      });
    }
    const roomId = parts[4] === 'rooms' ? seg(5) : undefined;
    const room = roomId === undefined ? undefined : rooms.get(roomId);
    if (method === 'PUT' && roomId !== undefined && parts[6] === 'send' && parts.length === 9)
      return send(res, roomId, seg(7), seg(8), body, path);
    if (method === 'PUT' && roomId !== undefined && parts[6] === 'redact' && parts.length === 9) {
      const target = state.sent.find((e) => e.eventId === seg(7) && e.roomId === roomId);
      if (target === undefined) return error(res, 404, 'M_NOT_FOUND', 'Event not found');
      target.redacted = true;
      state.redactions.push({ roomId, eventId: target.eventId });
      const eventId = eventIdOf();
      append({
        roomId,
        event: {
          type: 'm.room.redaction',
          event_id: eventId,
          sender: bot.userId,
          redacts: target.eventId,
          origin_server_ts: Date.now(),
          content: {},
        },
      });
      return json(res, 200, { event_id: eventId });
    }
    if (method === 'PUT' && roomId !== undefined && parts[6] === 'typing') {
      if (seg(7) !== bot.userId) return error(res, 403, 'M_FORBIDDEN', "Cannot set another user's typing state");
      const parsed = JSON.parse(body.toString('utf8') || '{}') as { typing?: unknown };
      state.typing.push({ roomId, typing: parsed.typing === true });
      return json(res, 200, {});
    }
    if (method === 'GET' && room !== undefined && parts[6] === 'joined_members') {
      if (!room.members.has(bot.userId)) return error(res, 403, 'M_FORBIDDEN', 'User not in room');
      return json(res, 200, {
        joined: Object.fromEntries(
          [...room.members].map(([id, name]) => [id, { display_name: name, avatar_url: null }]),
        ),
      });
    }
    if (method === 'GET' && room !== undefined && parts[6] === 'messages') {
      const position = (name: string, fallback: number) => {
        const match = /^s(\d+)$/.exec(url.searchParams.get(name) ?? '');
        return match === null ? fallback : Number(match[1]);
      };
      if (url.searchParams.get('dir') !== 'b') return error(res, 400, 'M_INVALID_PARAM', 'only dir=b here');
      const limit = Math.min(Number(url.searchParams.get('limit') ?? 10) || 10, 1000);
      return json(
        res,
        200,
        messagesPage(log, roomId ?? '', { from: position('from', seq), to: position('to', 0), limit }),
      );
    }
    if (method === 'GET' && room !== undefined && parts[6] === 'event') {
      const found = log.find((e) => e.roomId === roomId && e.event?.event_id === seg(7));
      return found?.event ? json(res, 200, found.event) : error(res, 404, 'M_NOT_FOUND', 'Event not found.');
    }
    const joinId =
      method === 'POST' && parts[4] === 'join' ? seg(5) : method === 'POST' && parts[6] === 'join' ? roomId : undefined;
    if (joinId !== undefined) {
      const target = rooms.get(joinId);
      state.joins.push(joinId);
      if (target === undefined) return error(res, 404, 'M_NOT_FOUND', 'No known servers');
      target.members.set(bot.userId, bot.displayName);
      append({ roomId: joinId, event: memberEvent(bot, 'join') });
      return json(res, 200, { room_id: joinId });
    }
    if (method === 'POST' && path === '/_matrix/media/v3/upload') {
      if (scripts.takeUploadFailure()) return error(res, 413, 'M_TOO_LARGE', 'Cannot upload files larger than 50.00M');
      const contentType = req.headers['content-type'] ?? 'application/octet-stream';
      const fileName = url.searchParams.get('filename') ?? undefined;
      const mxc = storeMedia(body, contentType, fileName);
      state.uploads.push({ mxc, contentType, fileName, data: body });
      return json(res, 200, { content_uri: mxc });
    }
    const authMedia = /^\/_matrix\/client\/v1\/media\/download\/([^/]+)\/([^/]+)/.exec(path);
    if (method === 'GET' && authMedia !== null) {
      if (!(options.versions ?? ['v1.11']).includes('v1.11'))
        return error(res, 404, 'M_UNRECOGNIZED', 'Unrecognized request');
      const file = media.get(`${decodeURIComponent(authMedia[1] ?? '')}/${decodeURIComponent(authMedia[2] ?? '')}`);
      if (file === undefined) return error(res, 404, 'M_NOT_FOUND', 'Not found');
      return void res
        .writeHead(200, { 'content-type': file.contentType, 'content-length': String(file.data.length) })
        .end(file.data);
    }
    error(res, 404, 'M_UNRECOGNIZED', 'Unrecognized request');
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    serverName,
    accessToken,
    bot,
    ...state,
    ...scripts.control,
    txnRepeats: () => repeats,
    directRoom: (person) => newRoom([person]),
    groupRoom: (people, o = {}) => newRoom(people, o.encrypted ?? false),
    invite(from, o = {}) {
      const roomId = newRoom([from]);
      rooms.get(roomId)?.members.delete(bot.userId);
      append({ roomId, invite: [from, o.direct ?? false] });
      return roomId;
    },
    message(roomId, from, text, o = {}) {
      const event = messageEvent(from, text, bot, o);
      append({ roomId, event });
      return event;
    },
    file(roomId, from, caption, f) {
      const mxc = storeMedia(f.data, f.mimeType, f.name);
      const event = messageEvent(from, caption, bot, {
        file: {
          mxc,
          name: f.name,
          mimeType: f.mimeType,
          size: f.data.length,
          msgtype: f.msgtype,
          ...(f.voice ? { voice: true } : {}),
        },
      });
      append({ roomId, event });
      return event;
    },
    encrypted(roomId, from) {
      const event = encryptedEvent(from);
      append({ roomId, event });
      return event;
    },
    push: (roomId, event) => append({ roomId, event: event as MatrixEvent }),
    redeliver: (roomId, event) => append({ roomId, event }),
    messages: () => botMessages(state.sent),
    edits: () => botEdits(state.sent),
    reactionsOn: (eventId) => botReactionsOn(state.sent, eventId),
    syncsOpened: () => opened,
    pendingSyncs: () => polls.size,
    dropSyncs() {
      for (const res of polls) res.socket?.destroy();
      polls.clear();
    },
    reset() {
      for (const list of Object.values(state)) list.length = 0;
      scripts.reset();
      // the server forgets the transactions too (Synapse keeps them for about 30 minutes)
      txns.clear();
      repeats = 0;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A Matrix user for tests. */
export function matrixPerson(index: number, name = `User${index}`, serverName = 'hermes.test'): MatrixPerson {
  return { userId: `@user${index}:${serverName}`, displayName: name };
}

/** hex sha256 of bytes (what the contract suite compares uploads by). */
export const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

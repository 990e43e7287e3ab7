// Contract driver for Matrix (plugins/platforms/matrix) against the fake homeserver
// (test/fakes/matrix-server.ts): events through its /sync long poll, everything else through the
// Client-Server API it records. A direct room per user, one group room with the bot and three
// users; edits and reactions are probed (the streaming suite runs); no buttons (approvals are asked
// in text); one file a message (Matrix's media messages carry one).
import { MATRIX_CAPABILITIES, matrixFactory } from '../../../plugins/platforms/matrix/index.js';
import type { MatrixEvent } from '../../fakes/matrix-events.js';
import {
  type BotEvent,
  type FakeMatrix,
  type MatrixPerson,
  sha256,
  startFakeMatrix,
} from '../../fakes/matrix-server.js';
import type {
  ContractFile,
  ContractUser,
  EditProbe,
  InboundRef,
  PlatformDriver,
  SentFile,
  SentText,
} from '../driver.js';
import { eventually } from '../recorders.js';

type Json = Record<string, unknown>;

const MEDIA_TYPES = new Set(['m.image', 'm.audio', 'm.video', 'm.file']);
const relation = (e: BotEvent): Json => (e.content['m.relates_to'] ?? {}) as Json;
/** what a message shows: its HTML when it has some, else its body */
const shown = (content: Json): string => String(content.formatted_body ?? content.body ?? '');

/** The Matrix driver: one fake homeserver, rooms made as users first write. */
export function matrixDriver(): PlatformDriver {
  let fake: FakeMatrix | null = null;
  const need = (): FakeMatrix => {
    if (!fake) throw new Error('matrix driver: start() first');
    return fake;
  };
  const dms = new Map<string, string>();
  let group: string | undefined;
  const person = (user: ContractUser): MatrixPerson => ({ userId: user.id, displayName: user.name });
  const user = (index: number): ContractUser => ({ id: `@user${index}:hermes.test`, name: `User${index}` });
  const dmRoom = (u: ContractUser): string => {
    let room = dms.get(u.id);
    if (room === undefined) {
      room = need().directRoom(person(u));
      dms.set(u.id, room);
    }
    return room;
  };
  const ref = (roomId: string, event: MatrixEvent): InboundRef => ({
    messageId: String(event.event_id),
    chatId: roomId,
    redeliver: async () => need().redeliver(roomId, event),
  });
  const msgtypeOf = (file: ContractFile) =>
    file.kind === 'photo' ? ('m.image' as const) : file.kind === 'voice' ? ('m.audio' as const) : ('m.file' as const);

  const edits: EditProbe = {
    posted: () =>
      need()
        .messages()
        .map((e) => ({ id: e.eventId, chatId: e.roomId, text: shown(e.content) })),
    edits: () =>
      need()
        .edits()
        .map((e) => ({ id: e.target, text: shown(e.content) })),
    reactionsOn: (r) => need().reactionsOn(r.messageId),
    native: (emoji) => emoji,
    rateLimitNextEdit: (ms) => need().rateLimitNextEdit(ms),
    refuseNextEdits: (count) => need().refuseNextEdits(count),
  };

  return {
    platform: 'matrix',
    label: 'matrix (client-server API, /sync)',
    factory: matrixFactory,
    maxMessageLength: MATRIX_CAPABILITIES.maxMessageLength,
    edits,
    oneFilePerMessage: true,
    user,
    async start() {
      fake = await startFakeMatrix();
      group = fake.groupRoom([user(0), user(1), user(2)].map(person));
    },
    async close() {
      await fake?.close();
    },
    reset() {
      need().reset();
    },
    env: (allowed) => ({
      MATRIX_HOMESERVER_URL: need().url,
      MATRIX_ACCESS_TOKEN: need().accessToken,
      MATRIX_USER_ID: need().bot.userId,
      MATRIX_ALLOWED_USERS: allowed.map((u) => u.id).join(','),
    }),
    settings: () => ({ request_timeout_ms: 5_000, sync_timeout_ms: 10_000 }),
    useGatewayUrl() {},
    async waitReady() {
      await eventually(() => need().pendingSyncs() > 0, undefined, 'matrix driver: a /sync long poll');
    },
    dm: async (u, text) => {
      const room = dmRoom(u);
      return ref(room, need().message(room, person(u), text));
    },
    group: async (u, text, { mention }) =>
      ref(group ?? '', need().message(group ?? '', person(u), text, mention ? { mention: 'pill' } : {})),
    dmFiles: async (u, text, files) => {
      const [file] = files;
      if (file === undefined || files.length > 1) throw new Error('matrix driver: one file a message');
      const room = dmRoom(u);
      const event = need().file(room, person(u), text, {
        data: file.data,
        mimeType: file.mimeType,
        name: file.name,
        msgtype: msgtypeOf(file),
        ...(file.kind === 'voice' ? { voice: true } : {}),
      });
      return ref(room, event);
    },
    sent: (): SentText[] =>
      need()
        .messages()
        .filter((e) => !MEDIA_TYPES.has(String(e.content.msgtype)))
        .map((e) => {
          const thread = relation(e).rel_type === 'm.thread' ? String(relation(e).event_id) : undefined;
          return { chatId: e.roomId, ...(thread ? { threadId: thread } : {}), text: String(e.content.body ?? '') };
        }),
    sentFiles: (): SentFile[] =>
      need()
        .messages()
        .filter((e) => MEDIA_TYPES.has(String(e.content.msgtype)))
        .map((e) => {
          const upload = need().uploads.find((u) => u.mxc === e.content.url);
          const data = upload?.data ?? Buffer.alloc(0);
          const voice = e.content['org.matrix.msc3245.voice'] !== undefined;
          return {
            chatId: e.roomId,
            fileName: String(e.content.filename ?? e.content.body ?? ''),
            kind:
              e.content.msgtype === 'm.image' ? ('image' as const) : voice ? ('voice' as const) : ('document' as const),
            size: data.length,
            sha256: sha256(data),
          };
        }),
    failNextUpload() {
      need().failNextUpload();
    },
    rateLimitNextSend(retryAfterMs) {
      need().rateLimitNextSend(retryAfterMs);
    },
    async dropConnection() {
      need().dropSyncs();
    },
    connectionCount: () => need().syncsOpened(),
    openConnections: () => need().pendingSyncs(),
  };
}

// Matrix in the chaos run: a homeserver's /sync long poll carries the messages (the gateway moves
// its `next_batch` token only after a batch's messages are stored, so a restart resumes); answers are
// PUTs whose transaction id comes from the outbox row, so a repeat the server already posted is
// answered from its transaction cache, not posted twice. A direct room per user, one group room
// with every chaos user where the bot is addressed by a pill. A drop destroys the waiting long polls.
import { type FakeMatrix, type MatrixPerson, startFakeMatrix } from '../fakes/matrix-server.js';
import type { ChaosPlatform, ChaosUser } from './platforms.js';
import { streamAndSpare, users } from './platforms.js';

const MEDIA_TYPES = new Set(['m.image', 'm.audio', 'm.video', 'm.file']);
/** the homeserver's retry_after_ms on a rate-limited send */
const RETRY_AFTER_MS = 1_000;

export function matrixPlatform(): ChaosPlatform {
  let fake: FakeMatrix | null = null;
  let group = '';
  let cursor = 0;
  let uploadCursor = 0;
  const need = (): FakeMatrix => {
    if (!fake) throw new Error('matrix: start() first');
    return fake;
  };
  const list = users((i) => `@chaos${i}:hermes.test`);
  const person = (user: ChaosUser): MatrixPerson => ({ userId: user.id, displayName: user.name });
  const dms = new Map<string, string>();
  const dmRoom = (user: ChaosUser): string => {
    let room = dms.get(user.id);
    if (room === undefined) {
      room = need().directRoom(person(user));
      dms.set(user.id, room);
    }
    return room;
  };
  const isMedia = (msgtype: unknown) => MEDIA_TYPES.has(String(msgtype));
  const texts = () =>
    need()
      .messages()
      .filter((e) => !isMedia(e.content.msgtype));
  return {
    name: 'matrix',
    mode: 'polling',
    ...streamAndSpare(list),
    async start() {
      fake = await startFakeMatrix();
      group = fake.groupRoom(list.map(person));
      // every direct room exists before the gateway's first sync (a fresh install answers no history)
      for (const user of list) dmRoom(user);
    },
    async close() {
      await fake?.close();
    },
    env: () => ({
      MATRIX_HOMESERVER_URL: need().url,
      MATRIX_ACCESS_TOKEN: need().accessToken,
      MATRIX_USER_ID: need().bot.userId,
      MATRIX_ALLOWED_USERS: list.map((u) => u.id).join(','),
    }),
    settings: () => ({ request_timeout_ms: 5_000, sync_timeout_ms: 1_000 }),
    send(user, text, isGroup, _key, photo) {
      const fakeServer = need();
      if (isGroup) {
        fakeServer.message(group, person(user), text, { mention: 'pill' });
        return { chatId: group };
      }
      const room = dmRoom(user);
      if (photo) {
        fakeServer.file(room, person(user), text, {
          data: photo.data,
          mimeType: photo.mimeType,
          name: photo.fileName,
          msgtype: 'm.image',
        });
      } else fakeServer.message(room, person(user), text);
      return { chatId: room };
    },
    takeReplies() {
      const sent = texts();
      const out = sent.slice(cursor).map((e) => ({ chatId: e.roomId, text: String(e.content.body ?? '') }));
      cursor = sent.length;
      return out;
    },
    takeUploads() {
      const files = need()
        .messages()
        .filter((e) => isMedia(e.content.msgtype));
      const out = files
        .slice(uploadCursor)
        .map((e) => ({ chatId: e.roomId, text: String(e.content.filename ?? e.content.body ?? '') }));
      uploadCursor = files.length;
      return out;
    },
    replyCount: () => texts().length,
    shown: () => {
      const fakeServer = need();
      const newest = new Map<string, string>();
      for (const edit of fakeServer.edits()) newest.set(edit.target, String(edit.content.body ?? ''));
      return texts().map((e) => ({
        id: e.eventId,
        chatId: e.roomId,
        text: newest.get(e.eventId) ?? String(e.content.body ?? ''),
      }));
    },
    rateLimitStorm(count) {
      for (let i = 0; i < count; i++) need().rateLimitNextSend(RETRY_AFTER_MS);
    },
    serverErrors(count, status) {
      need().failNextSends(count, status);
    },
    async dropConnection() {
      need().dropSyncs();
    },
    failuresAnswered: () => need().sendFailures(),
    tick() {},
  };
}

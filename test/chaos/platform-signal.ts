// Signal (signal-cli's JSON-RPC daemon) in the chaos run: each message is an event on the daemon's
// Server-Sent Events stream, which the gateway reads and resumes with `Last-Event-ID` after a drop
// or a restart (the daemon replays what it missed); answers are JSON-RPC `send` calls. A drop
// destroys the open streams; the 429 and 5xx faults script the daemon's next sends.
import { randomUUID } from 'node:crypto';
import { type FakeSignal, type SignalPerson, startFakeSignal } from '../fakes/signal-server.js';
import type { ChaosPlatform, ChaosUser } from './platforms.js';
import { streamAndSpare, users } from './platforms.js';

const GROUP = 'Q2hhb3MgZ3JvdXAgaWQgZm9yIHRoZSBydW4=';
/** the daemon's retry-after on a rate-limited send */
const RETRY_AFTER_S = 1;

export function signalPlatform(): ChaosPlatform {
  let fake: FakeSignal | null = null;
  let cursor = 0;
  let uploadCursor = 0;
  const need = (): FakeSignal => {
    if (!fake) throw new Error('signal: start() first');
    return fake;
  };
  const list = users((i) => `+1555300${String(i).padStart(4, '0')}`);
  const people = new Map<string, SignalPerson>();
  const person = (user: ChaosUser): SignalPerson => {
    let p = people.get(user.id);
    if (p === undefined) {
      p = { number: user.id, uuid: randomUUID(), name: user.name };
      people.set(user.id, p);
    }
    return p;
  };
  const texts = () => need().sent.filter((m) => m.attachments.length === 0);
  return {
    name: 'signal',
    mode: 'sse',
    ...streamAndSpare(list),
    async start() {
      fake = await startFakeSignal();
    },
    async close() {
      await fake?.close();
    },
    env: () => ({
      SIGNAL_HTTP_URL: need().url,
      SIGNAL_ACCOUNT: need().account,
      SIGNAL_ALLOWED_USERS: list.map((u) => u.id).join(','),
    }),
    settings: () => ({ request_timeout_ms: 5_000 }),
    send(user, text, group, _key, photo) {
      const attachments = photo ? [{ data: photo.data, contentType: photo.mimeType, filename: photo.fileName }] : [];
      const pushed = need().message(person(user), text, {
        ...(group ? { groupId: GROUP, mentionBot: true } : {}),
        ...(attachments.length > 0 && !group ? { attachments } : {}),
      });
      return { chatId: pushed.chatId };
    },
    takeReplies() {
      const sent = texts();
      const out = sent.slice(cursor).map((m) => ({ chatId: m.chatId, text: m.message }));
      cursor = sent.length;
      return out;
    },
    takeUploads() {
      const files = need().sent.filter((m) => m.attachments.length > 0);
      const out = files
        .slice(uploadCursor)
        .flatMap((m) => m.attachments.map((a) => ({ chatId: m.chatId, text: a.filename ?? '' })));
      uploadCursor = files.length;
      return out;
    },
    replyCount: () => texts().length,
    rateLimitStorm(count) {
      need().rateLimitNextSends(count, RETRY_AFTER_S);
    },
    serverErrors(count, status) {
      need().failNextSends(count, status);
    },
    async dropConnection() {
      need().dropStreams();
    },
    failuresAnswered: () => need().sendFailures(),
    tick() {},
  };
}

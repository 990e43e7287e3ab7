// Contract driver for Signal (plugins/platforms/signal) against the fake signal-cli daemon
// (test/fakes/signal-server.ts): events on its SSE stream, everything else through JSON-RPC.
// No edits (the streaming suite is skipped) and no buttons (approvals are asked in text).
import { createHash, randomUUID } from 'node:crypto';
import { SIGNAL_CAPABILITIES, signalFactory } from '../../../plugins/platforms/signal/index.js';
import { type FakeSignal, type SignalPerson, startFakeSignal } from '../../fakes/signal-server.js';
import type { ContractUser, InboundRef, PlatformDriver, SentFile, SentText } from '../driver.js';
import { eventually } from '../recorders.js';

const GROUP = 'Q29udHJhY3QgZ3JvdXAgaWQgZm9yIHRlc3Rz';

/** The Signal driver: one SSE stream, JSON-RPC calls recorded by the fake. */
export function signalDriver(): PlatformDriver {
  let fake: FakeSignal | null = null;
  const need = (): FakeSignal => {
    if (!fake) throw new Error('signal driver: start() first');
    return fake;
  };
  const people = new Map<string, SignalPerson>();
  const person = (user: ContractUser): SignalPerson => {
    let p = people.get(user.id);
    if (p === undefined) {
      p = { number: user.id, uuid: randomUUID(), name: user.name };
      people.set(user.id, p);
    }
    return p;
  };
  const ref = (pushed: ReturnType<FakeSignal['message']>): InboundRef => ({
    messageId: pushed.messageId,
    chatId: pushed.chatId,
    redeliver: async () => need().redeliver(pushed.envelope),
  });

  return {
    platform: 'signal',
    label: 'signal (signal-cli daemon --http)',
    factory: signalFactory,
    maxMessageLength: SIGNAL_CAPABILITIES.maxMessageLength,
    user: (index: number): ContractUser => ({ id: `+1555200${String(index).padStart(4, '0')}`, name: `User${index}` }),
    async start() {
      fake = await startFakeSignal();
    },
    async close() {
      await fake?.close();
    },
    reset() {
      need().reset();
    },
    env: (allowed) => ({
      SIGNAL_HTTP_URL: need().url,
      SIGNAL_ACCOUNT: need().account,
      SIGNAL_ALLOWED_USERS: allowed.map((u) => u.id).join(','),
    }),
    settings: () => ({ request_timeout_ms: 5_000 }),
    useGatewayUrl() {},
    async waitReady() {
      await eventually(() => need().openStreams() > 0, undefined, 'signal driver: an open event stream');
    },
    dm: async (user, text) => ref(need().message(person(user), text)),
    group: async (user, text, { mention }) =>
      ref(need().message(person(user), text, { groupId: GROUP, mentionBot: mention })),
    dmFiles: async (user, text, files) =>
      ref(
        need().message(person(user), text, {
          attachments: files.map((f) => ({ data: f.data, contentType: f.mimeType, filename: f.name })),
        }),
      ),
    sent: (): SentText[] =>
      need()
        .sent.filter((m) => m.attachments.length === 0)
        .map((m) => ({ chatId: m.chatId, text: m.message })),
    sentFiles: (): SentFile[] =>
      need().sent.flatMap((m) =>
        m.attachments.map((a) => ({
          chatId: m.chatId,
          fileName: a.filename ?? '',
          // Signal has no photo/document distinction on the wire: an image attachment shows inline
          kind: a.contentType.startsWith('image/') ? ('image' as const) : ('document' as const),
          size: a.data.length,
          sha256: createHash('sha256').update(a.data).digest('hex'),
        })),
      ),
    failNextUpload() {
      need().failNextAttachment();
    },
    rateLimitNextSend(retryAfterMs) {
      need().rateLimitNextSend(Math.max(1, Math.ceil(retryAfterMs / 1000)));
    },
    async dropConnection() {
      need().dropStreams();
    },
    connectionCount: () => need().streamsOpened(),
    openConnections: () => need().openStreams(),
  };
}

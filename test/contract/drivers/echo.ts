// Contract driver for Echo, the example platform plugin of docs/platforms/write-your-own.md
// (docs/platforms/examples/echo-platform), against its fake (test/fakes/echo-server.ts): proof
// that a third-party plugin written against the platform kit keeps the same contract.
import { ECHO_CAPABILITIES, echoFactory } from '../../../docs/platforms/examples/echo-platform/index.js';
import { type EchoUpdate, type FakeEcho, startFakeEcho } from '../../fakes/echo-server.js';
import type { ContractUser, InboundRef, PlatformDriver, SentText } from '../driver.js';
import { eventually } from '../recorders.js';

const TOKEN = 'echo-contract-token';
const GROUP_CHAT = 'group-1';

/** The Echo driver: HTTP long polling, one poll at a time. */
export function echoDriver(): PlatformDriver {
  let fake: FakeEcho | null = null;
  const need = (): FakeEcho => {
    if (!fake) throw new Error('echo driver: start() first');
    return fake;
  };
  const inject = (update: Omit<EchoUpdate, 'id'>): InboundRef => {
    const pushed = need().push(update);
    return { messageId: String(pushed.id), chatId: update.chat.id, redeliver: async () => need().redeliver(pushed) };
  };

  return {
    platform: 'echo',
    label: 'echo (example plugin)',
    factory: echoFactory,
    maxMessageLength: ECHO_CAPABILITIES.maxMessageLength,
    user: (index: number): ContractUser => ({ id: `user-${index}`, name: `user${index}` }),
    async start() {
      fake = await startFakeEcho({ token: TOKEN, longPollMs: 100 });
    },
    async close() {
      await fake?.close();
    },
    reset() {
      need().reset();
    },
    env: (allowed) => ({ ECHO_TOKEN: TOKEN, ECHO_ALLOWED_USERS: allowed.map((u) => u.id).join(',') }),
    settings: () => ({ api_url: need().url }),
    useGatewayUrl() {},
    async waitReady() {
      await eventually(() => need().pendingPolls() > 0, undefined, 'echo driver: a long poll');
    },
    dm: async (user, text) =>
      inject({ chat: { id: user.id, type: 'dm' }, from: { id: user.id, name: user.name }, text }),
    group: async (user, text, { mention }) =>
      inject({
        chat: { id: GROUP_CHAT, type: 'group' },
        from: { id: user.id, name: user.name },
        text,
        mentions_bot: mention,
      }),
    sent: (): SentText[] => need().sent.map((m) => ({ chatId: m.chat, text: m.text })),
    rateLimitNextSend(retryAfterMs) {
      need().rateLimitNextSend(retryAfterMs);
    },
    async dropConnection() {
      need().dropConnections();
    },
    connectionCount: () => need().polls(),
    openConnections: () => need().pendingPolls(),
  };
}

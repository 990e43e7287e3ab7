// Contract drivers for Slack: Socket Mode (events over the fake's WebSocket) and HTTP events (signed
// POSTs to the gateway's own Fastify), both through the real Bolt against test/fakes/slack-server.ts.
import { SLACK_CAPABILITIES, slackFactory } from '../../../plugins/platforms/slack/index.js';
import { type EventsApiEnvelope, type FakeSlack, type MessageInput, startFakeSlack } from '../../fakes/slack-server.js';
import type {
  ButtonPrompt,
  ContractUser,
  EditProbe,
  InboundRef,
  PlatformDriver,
  SentFile,
  SentText,
} from '../driver.js';
import { eventually } from '../recorders.js';

const BOT_TOKEN = 'xoxb-7770017770-7770027770-ContractBotToken';
const APP_TOKEN = 'xapp-1-A0CONTRACT1-7770037770-ContractAppToken';
const SIGNING_SECRET = 'contract-signing-secret-5d41402abc4b2a76';
const GROUP_CHANNEL = 'C0CONTRACT';
const EVENTS_PATH = '/slack/events';
/** small, so a deaf socket is noticed and replaced within about a second */
const LIVENESS_TIMEOUT_MS = 600;

type Mode = 'socket' | 'http';

const decode = (text: string): string => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

function slackDriver(mode: Mode): PlatformDriver {
  let fake: FakeSlack | null = null;
  let gatewayUrl = '';
  const need = (): FakeSlack => {
    if (!fake) throw new Error('slack driver: start() first');
    return fake;
  };

  async function post(body: unknown, retryNum?: number): Promise<void> {
    const response = await need().postEvent(
      `${gatewayUrl}${EVENTS_PATH}`,
      body,
      retryNum === undefined ? {} : { retryNum, retryReason: 'http_timeout' },
    );
    if (response.status !== 200) throw new Error(`slack events endpoint answered ${response.status}`);
  }

  async function inject(user: ContractUser, input: MessageInput): Promise<InboundRef> {
    const slack = need();
    slack.addUser({ id: user.id, name: user.name });
    let ts: string;
    let redeliver: () => Promise<void>;
    if (mode === 'socket') {
      const { message, mention } = slack.pushMessage(input);
      ts = String(message.payload.event.ts);
      const envelopes: EventsApiEnvelope[] = mention === undefined ? [message] : [message, mention];
      redeliver = async () => {
        for (const envelope of envelopes) slack.redeliver(envelope);
      };
    } else {
      const event = slack.messageEvent(input);
      ts = event.ts;
      const body = slack.eventCallback(event);
      await post(body);
      redeliver = () => post(body, 1);
    }
    return { messageId: `${input.channel}:${ts}`, chatId: input.channel, redeliver };
  }

  const edits: EditProbe = {
    posted: () => need().posted.map((m) => ({ id: `${m.channel}:${m.ts}`, chatId: m.channel, text: m.text })),
    edits: () => need().updates.map((u) => ({ id: `${u.channel}:${u.ts}`, text: u.text })),
    reactionsOn: (inbound) => {
      const split = inbound.messageId.lastIndexOf(':');
      return need().reactionsOn(inbound.messageId.slice(0, split), inbound.messageId.slice(split + 1));
    },
    native: (emoji) => ({ '👀': 'eyes', '✅': 'white_check_mark', '❌': 'x' })[emoji] ?? emoji,
    rateLimitNextEdit(retryAfterMs) {
      need().failNext('chat.update', { rateLimited: Math.max(1, Math.ceil(retryAfterMs / 1000)) });
    },
    refuseNextEdits(count) {
      need().failNext('chat.update', { error: 'message_not_found' }, count);
    },
  };

  return {
    edits,
    platform: 'slack',
    label: mode === 'socket' ? 'slack (socket mode)' : 'slack (http events)',
    factory: slackFactory,
    maxMessageLength: SLACK_CAPABILITIES.maxMessageLength,
    user: (index: number): ContractUser => ({ id: `U0CONTRACT${index}`, name: `user${index}` }),
    async start() {
      fake = await startFakeSlack({
        botToken: BOT_TOKEN,
        appToken: APP_TOKEN,
        signingSecret: SIGNING_SECRET,
        pingIntervalMs: 5_000,
      });
    },
    async close() {
      await fake?.close();
    },
    reset() {
      need().reset();
    },
    env: (allowed) => ({
      SLACK_BOT_TOKEN: BOT_TOKEN,
      ...(mode === 'socket' ? { SLACK_APP_TOKEN: APP_TOKEN } : { SLACK_SIGNING_SECRET: SIGNING_SECRET }),
      SLACK_ALLOWED_USERS: allowed.map((u) => u.id).join(','),
    }),
    settings: () => ({
      api_url: need().apiUrl,
      mode,
      liveness_timeout_ms: LIVENESS_TIMEOUT_MS,
      events_path: EVENTS_PATH,
    }),
    useGatewayUrl(url) {
      gatewayUrl = url;
    },
    async waitReady() {
      if (mode === 'socket') await need().waitForLiveSocket(30_000);
    },
    // a DM channel per user, as Slack has one IM channel per user and bot
    dm: (user, text) => inject(user, { channel: `D${user.id.slice(1)}`, user: user.id, text, channelType: 'im' }),
    // files shared in a message: subtype file_share, each file served at its url_private (bearer auth)
    dmFiles: (user, text, files) =>
      inject(user, {
        channel: `D${user.id.slice(1)}`,
        user: user.id,
        text,
        channelType: 'im',
        subtype: 'file_share',
        files: files.map((f) => need().addFile({ name: f.name, mimetype: f.mimeType, data: f.data })),
      }),
    group: (user, text, { mention }) =>
      inject(user, {
        channel: GROUP_CHANNEL,
        user: user.id,
        text: mention ? `<@${need().bot.userId}> ${text}` : text,
        channelType: 'channel',
      }),
    threadReply: (user, text, parent) =>
      inject(user, {
        channel: GROUP_CHANNEL,
        user: user.id,
        text,
        channelType: 'channel',
        threadTs: parent.messageId.slice(parent.messageId.lastIndexOf(':') + 1),
      }),
    buttonPrompts: (): ButtonPrompt[] =>
      need()
        .posted.filter((m) => m.params.blocks !== undefined)
        .map((m) => {
          const first = JSON.parse(String(m.params.blocks)) as { elements?: { text: { text: string } }[] }[];
          return {
            id: m.ts,
            text: m.text,
            labels: first.flatMap((b) => b.elements ?? []).map((e) => e.text.text),
            open: (m.blocks ?? []).length > 0,
          };
        }),
    async pressButton(user, promptId, label) {
      const slack = need();
      const prompt = slack.posted.find((m) => m.ts === promptId);
      const first = JSON.parse(String(prompt?.params.blocks ?? '[]')) as {
        elements?: { action_id: string; text: { text: string } }[];
      }[];
      const actionId = first.flatMap((b) => b.elements ?? []).find((e) => e.text.text === label)?.action_id;
      if (prompt === undefined || actionId === undefined) throw new Error(`no button ${label} under ${promptId}`);
      const input = { channel: prompt.channel, user: user.id, messageTs: prompt.ts, actionId };
      const before = slack.ephemerals.length;
      if (mode === 'socket') slack.pushBlockAction(input);
      else {
        const res = await slack.postBlockAction(`${gatewayUrl}${EVENTS_PATH}`, input);
        if (res.status !== 200) throw new Error(`interactivity request answered ${res.status}`);
      }
      const mine = () => slack.ephemerals.slice(before).find((e) => e.user === user.id);
      await eventually(() => mine() !== undefined, 30_000, 'the ephemeral answer to a press');
      return mine()?.text ?? '';
    },
    sent: (): SentText[] =>
      need().posted.map((m) => ({
        chatId: m.channel,
        ...(m.thread_ts === undefined ? {} : { threadId: m.thread_ts }),
        text: decode(m.text),
      })),
    sentFiles: (): SentFile[] =>
      need().sharedFiles.map((f) => ({
        chatId: f.channel,
        ...(f.thread_ts === undefined ? {} : { threadId: f.thread_ts }),
        fileName: f.name,
        // Slack shows an image file inline: the file's type is what makes it one
        kind: /\.(png|jpe?g|gif|webp)$/i.test(f.name) ? ('image' as const) : ('document' as const),
        size: f.size,
        sha256: f.sha256,
      })),
    failNextUpload() {
      need().failNext('files.getUploadURLExternal', { error: 'file_uploads_disabled' });
    },
    rateLimitNextSend(retryAfterMs) {
      need().failNext('chat.postMessage', { rateLimited: Math.max(1, Math.ceil(retryAfterMs / 1000)) });
    },
    async dropConnection() {
      if (mode === 'socket') need().silence(); // Slack's failure mode: the socket stays open and goes deaf
    },
    connectionCount: () => (mode === 'socket' ? need().connectionCount() : 0),
    openConnections: () => (mode === 'socket' ? need().openConnections() : 0),
  };
}

/** Slack over Socket Mode: dropConnection() makes the socket deaf (open, silent). */
export function slackSocketDriver(): PlatformDriver {
  return slackDriver('socket');
}

/** Slack over the HTTP Events API on the gateway's own server; no connection to drop. */
export function slackHttpDriver(): PlatformDriver {
  return slackDriver('http');
}

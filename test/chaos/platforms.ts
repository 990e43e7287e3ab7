// The three platform fakes as the chaos run uses them: messages in from many users, the bot's
// replies out, and each platform's own faults (429 storms, 5xx on send, dropped connections).
// Same fakes, tokens shape and settings as the contract drivers (test/contract/drivers/), plus the
// fault and delivery hooks the drivers do not expose (5xx, Slack acks, Discord readiness).
import { type DispatchedMessage, type FakeDiscord, startFakeDiscord } from '../fakes/discord-server.js';
import { type EventsApiEnvelope, type FakeSlack, startFakeSlack } from '../fakes/slack-server.js';
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram-server.js';

export type PlatformName = 'telegram' | 'discord' | 'slack';

export interface ChaosUser {
  index: number;
  id: string;
  name: string;
}

/** What a platform knows about one inbound message once it was offered to the bot. */
export interface Offered {
  /** the chat the answer must go to */
  chatId: string;
  /** Discord only: a ready gateway connection existed when the event was dispatched */
  online?: boolean;
}

/** One message the bot sent, as the fake recorded it. */
export interface Reply {
  chatId: string;
  text: string;
}

/** How a Slack message's envelopes fared (Slack redelivers an envelope that is not acknowledged). */
export interface SlackDelivery {
  /** when the first envelope of the message was acknowledged by the bot */
  ackedAt: number | undefined;
  /** redeliveries made because an envelope went unacknowledged */
  redeliveries: number;
}

export interface ChaosPlatform {
  readonly name: PlatformName;
  /** the users of the message stream */
  readonly users: readonly ChaosUser[];
  /** one more allowed user, kept out of the stream (the crash-loop message comes from it) */
  readonly spare: ChaosUser;
  start(): Promise<void>;
  close(): Promise<void>;
  /** credentials pointing at the fake and the allowlist of every chaos user */
  env(): Record<string, string>;
  /** `gateway.platforms.<name>` */
  settings(): Record<string, unknown>;
  /** offers a message to the bot (a DM, or an @-mention in the group chat) */
  send(user: ChaosUser, text: string, group: boolean, key: number): Offered;
  /** replies recorded since the last call */
  takeReplies(): Reply[];
  /** every reply recorded so far */
  replyCount(): number;
  /** the next `count` sends answer 429 (the platform's own shape) */
  rateLimitStorm(count: number): void;
  /** the next `count` sends answer this 5xx */
  serverErrors(count: number, status: number): void;
  /** breaks the live connection the platform's way */
  dropConnection(): Promise<void>;
  /** answers the platform sent: [429s, 5xx] so far (what the faults really did) */
  failuresAnswered(): { rateLimited: number; serverErrors: number };
  /** periodic work (Slack: redeliver unacknowledged envelopes) */
  tick(now: number): void;
  /** Slack only: how the message with `key` fared */
  slackDelivery?(key: number): SlackDelivery | undefined;
}

const USERS_PER_PLATFORM = 20;

/** the stream's users and the spare one (the last) */
function users(id: (index: number) => string): ChaosUser[] {
  return Array.from({ length: USERS_PER_PLATFORM + 1 }, (_, index) => ({ index, id: id(index), name: `user${index}` }));
}

function streamAndSpare(all: ChaosUser[]): { users: ChaosUser[]; spare: ChaosUser } {
  const spare = all.at(-1);
  if (spare === undefined) throw new Error('no users');
  return { users: all.slice(0, -1), spare };
}

// ---- Telegram (grammy long polling) --------------------------------------------------------

const TELEGRAM_TOKEN = '777002:CHAOS-telegram-token';
const TELEGRAM_GROUP = -100_778;

/** Telegram over long polling: updates stay queued in the fake until a later offset confirms them. */
export function telegramPlatform(): ChaosPlatform {
  let fake: FakeTelegram | null = null;
  let cursor = 0;
  const need = (): FakeTelegram => {
    if (!fake) throw new Error('telegram: start() first');
    return fake;
  };
  const list = users((i) => String(5_101 + i));
  return {
    name: 'telegram',
    ...streamAndSpare(list),
    async start() {
      fake = await startFakeTelegram({ token: TELEGRAM_TOKEN, longPollCapMs: 500 });
    },
    async close() {
      await fake?.close();
    },
    env: () => ({
      TELEGRAM_BOT_TOKEN: TELEGRAM_TOKEN,
      TELEGRAM_ALLOWED_USERS: list.map((u) => u.id).join(','),
    }),
    settings: () => ({ api_root: need().apiRoot, poll_timeout_s: 1 }),
    send(user, text, group) {
      const tg = need();
      if (!group) {
        tg.pushMessage({ chatId: Number(user.id), userId: Number(user.id), text, firstName: user.name });
        return { chatId: user.id };
      }
      tg.pushMessage({
        chatId: TELEGRAM_GROUP,
        chatType: 'supergroup',
        userId: Number(user.id),
        firstName: user.name,
        text: `@${tg.bot.username} ${text}`,
      });
      return { chatId: String(TELEGRAM_GROUP) };
    },
    takeReplies() {
      const sent = need().sent;
      const out = sent.slice(cursor).map((m) => ({ chatId: String(m.chat_id), text: m.text }));
      cursor = sent.length;
      return out;
    },
    replyCount: () => need().sent.length,
    rateLimitStorm(count) {
      for (let i = 0; i < count; i++) need().failNext('sendMessage', { status: 429, retryAfter: 1 });
    },
    serverErrors(count, status) {
      for (let i = 0; i < count; i++) need().failNext('sendMessage', { status });
    },
    async dropConnection() {
      need().dropConnections();
    },
    failuresAnswered() {
      const sends = need().calls.filter((c) => c.method === 'sendMessage');
      return {
        rateLimited: sends.filter((c) => c.status === 429).length,
        serverErrors: sends.filter((c) => (c.status ?? 0) >= 500).length,
      };
    },
    tick() {},
  };
}

// ---- Discord (discord.js gateway + REST) ---------------------------------------------------

const DISCORD_TOKEN = 'MTc3NzAwMjE3NzAwMjE3NzAwMg.GcHaOs.CHAOS-discord-token-0123456789abcdefgh';
const DISCORD_FIRST_USER = 378_000_000_000_000_001n;

/** Discord: a dispatch reaches the bot only over a live session (RESUME replays what a dropped one missed). */
export function discordPlatform(): ChaosPlatform {
  let fake: FakeDiscord | null = null;
  let cursor = 0;
  const need = (): FakeDiscord => {
    if (!fake) throw new Error('discord: start() first');
    return fake;
  };
  const list = users((i) => String(DISCORD_FIRST_USER + BigInt(i)));
  return {
    name: 'discord',
    ...streamAndSpare(list),
    async start() {
      fake = await startFakeDiscord({ token: DISCORD_TOKEN });
    },
    async close() {
      await fake?.close();
    },
    env: () => ({
      DISCORD_BOT_TOKEN: DISCORD_TOKEN,
      DISCORD_ALLOWED_USERS: list.map((u) => u.id).join(','),
    }),
    settings: () => ({ api_base: need().apiBase }),
    send(user, text, group) {
      const discord = need();
      const online = discord.latestReady();
      const message: DispatchedMessage = group
        ? discord.guildMessage({ user, content: text, mention: true })
        : discord.dmMessage({ user, content: text });
      return { chatId: message.channel_id, online };
    },
    takeReplies() {
      const sent = need().sent;
      const out = sent.slice(cursor).map((m) => ({ chatId: m.channel_id, text: m.content }));
      cursor = sent.length;
      return out;
    },
    replyCount: () => need().sent.length,
    rateLimitStorm(count) {
      need().rateLimitNextSends(count, 1_000);
    },
    serverErrors(count, status) {
      for (let i = 0; i < count; i++) need().failNext('createMessage', { status });
    },
    async dropConnection() {
      await need().dropConnections(4000);
    },
    failuresAnswered() {
      const sends = need().calls.filter((c) => c.route === 'createMessage');
      return {
        rateLimited: sends.filter((c) => c.status === 429).length,
        serverErrors: sends.filter((c) => c.status >= 500).length,
      };
    },
    tick() {},
  };
}

// ---- Slack (Bolt, Socket Mode) -------------------------------------------------------------

const SLACK_BOT_TOKEN = 'xoxb-7770047770-7770057770-ChaosBotToken';
const SLACK_APP_TOKEN = 'xapp-1-A0CHAOS0001-7770067770-ChaosAppToken';
const SLACK_SIGNING_SECRET = 'chaos-signing-secret-8f14e45fceea167a';
const SLACK_GROUP = 'C0CHAOS';
/** Slack redelivers an envelope the app did not acknowledge within 3 s, up to 3 times */
const SLACK_ACK_TIMEOUT_MS = 3_000;
const SLACK_MAX_RETRIES = 3;

interface TrackedEnvelope {
  /** the chaos message it carries */
  key: number;
  envelope: EventsApiEnvelope;
  /** every envelope id this event went out under (redeliveries get new ids) */
  ids: string[];
  /** when it left the fake's queue for a socket */
  sentAt: number | undefined;
  retries: number;
  done: boolean;
}

/**
 * Slack over Socket Mode. The fake sends a queued envelope once a live socket is there; what it
 * does not model, Slack's redelivery of an envelope nobody acknowledged, is done here by tick().
 */
export function slackPlatform(): ChaosPlatform {
  let fake: FakeSlack | null = null;
  let cursor = 0;
  let ackCursor = 0;
  const acked = new Map<string, number>();
  const tracked = new Map<number, TrackedEnvelope[]>();
  const redeliveries = new Map<number, number>();
  const ackedAt = new Map<number, number>();
  const need = (): FakeSlack => {
    if (!fake) throw new Error('slack: start() first');
    return fake;
  };
  const list = users((i) => `U0CHAOS${i}`);
  /** reads new acks: an acknowledged envelope is done, and its message's first ack time is kept */
  const settleAcks = (): void => {
    const acks = need().acks;
    for (const ack of acks.slice(ackCursor)) if (!acked.has(ack.envelopeId)) acked.set(ack.envelopeId, ack.at);
    ackCursor = acks.length;
    for (const [key, envelopes] of tracked) {
      for (const item of envelopes) {
        const at = item.ids.map((id) => acked.get(id)).find((t) => t !== undefined);
        if (at === undefined) continue;
        item.done = true;
        ackedAt.set(key, Math.min(at, ackedAt.get(key) ?? at));
      }
      if (envelopes.every((item) => item.done)) tracked.delete(key);
    }
  };
  return {
    name: 'slack',
    ...streamAndSpare(list),
    async start() {
      fake = await startFakeSlack({
        botToken: SLACK_BOT_TOKEN,
        appToken: SLACK_APP_TOKEN,
        signingSecret: SLACK_SIGNING_SECRET,
        pingIntervalMs: 5_000,
      });
      for (const user of list) fake.addUser({ id: user.id, name: user.name });
    },
    async close() {
      await fake?.close();
    },
    env: () => ({
      SLACK_BOT_TOKEN,
      SLACK_APP_TOKEN,
      SLACK_ALLOWED_USERS: list.map((u) => u.id).join(','),
    }),
    settings: () => ({ api_url: need().apiUrl, mode: 'socket', liveness_timeout_ms: 600 }),
    send(user, text, group, key) {
      const slack = need();
      const channel = group ? SLACK_GROUP : `D${user.id.slice(1)}`;
      const { message, mention } = slack.pushMessage({
        channel,
        user: user.id,
        text: group ? `<@${slack.bot.userId}> ${text}` : text,
        channelType: group ? 'channel' : 'im',
      });
      const envelopes = mention === undefined ? [message] : [message, mention];
      tracked.set(
        key,
        envelopes.map((envelope) => ({
          key,
          envelope,
          ids: [envelope.envelope_id],
          sentAt: undefined,
          retries: 0,
          done: false,
        })),
      );
      return { chatId: channel };
    },
    takeReplies() {
      const posted = need().posted;
      const out = posted.slice(cursor).map((m) => ({ chatId: m.channel, text: m.text }));
      cursor = posted.length;
      return out;
    },
    replyCount: () => need().posted.length,
    rateLimitStorm(count) {
      need().failNext('chat.postMessage', { rateLimited: 1 }, count);
    },
    serverErrors(count, status) {
      need().failNext('chat.postMessage', { status }, count);
    },
    async dropConnection() {
      need().silence(); // Slack's failure mode: the socket stays open and goes deaf
    },
    failuresAnswered() {
      const posts = need().calls.filter((c) => c.method === 'chat.postMessage');
      return {
        rateLimited: posts.filter((c) => c.status === 429).length,
        serverErrors: posts.filter((c) => c.status >= 500).length,
      };
    },
    tick(now) {
      const slack = need();
      settleAcks();
      const queued = new Set(slack.queued().map((e) => e.envelope_id));
      for (const envelopes of tracked.values()) {
        for (const item of envelopes) {
          if (item.done || queued.has(item.envelope.envelope_id)) continue;
          item.sentAt ??= now;
          if (now - item.sentAt < SLACK_ACK_TIMEOUT_MS) continue;
          if (item.retries >= SLACK_MAX_RETRIES) {
            item.done = true;
            continue;
          }
          item.envelope = slack.redeliver(item.envelope);
          item.ids.push(item.envelope.envelope_id);
          item.sentAt = undefined;
          item.retries += 1;
          redeliveries.set(item.key, (redeliveries.get(item.key) ?? 0) + 1);
        }
      }
    },
    slackDelivery(key) {
      settleAcks();
      return { ackedAt: ackedAt.get(key), redeliveries: redeliveries.get(key) ?? 0 };
    },
  };
}

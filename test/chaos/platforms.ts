// The platforms as the chaos run uses them: messages in from many users, the bot's replies out,
// and each platform's own faults (429 storms, 5xx on send, dropped connections). The interface,
// the users, and Discord; Telegram (polling or webhook), Slack (Socket Mode or HTTP) and the API
// platform have their own files. Same fakes, tokens shape and settings as the contract drivers
// (test/contract/drivers/), plus the fault and delivery hooks the drivers do not expose (5xx,
// Slack acks and redelivery, webhook redelivery, Discord readiness).

import {
  type DispatchedMessage,
  type FakeDiscord,
  type SentMessage,
  startFakeDiscord,
} from '../fakes/discord-server.js';
import type { ChaosPhoto } from './media.js';
import type { PushOutcome } from './push-delivery.js';
import { newestEdits, type ShownMessage } from './streamed-replies.js';

export type PlatformName = 'telegram' | 'discord' | 'slack' | 'whatsapp' | 'signal' | 'matrix' | 'email' | 'api';

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
  /** streaming: the whole text this message showed before it was edited to `text` (counted instead) */
  replaces?: string;
}

/** How a Slack message's envelopes fared (Slack redelivers an envelope that is not acknowledged). */
export interface SlackDelivery {
  /** when the first envelope of the message was acknowledged by the bot */
  ackedAt: number | undefined;
  /** redeliveries made because an envelope went unacknowledged */
  redeliveries: number;
  /** HTTP mode: Slack stopped retrying an event the gateway never answered 200 */
  gaveUp?: boolean;
}

/** How the platform's events reach the gateway: pulled (long polling, a socket) or pushed over HTTP. */
export type IntakeMode = 'polling' | 'webhook' | 'socket' | 'http' | 'gateway' | 'sse' | 'api';

export interface ChaosPlatform {
  readonly name: PlatformName;
  readonly mode: IntakeMode;
  /** false: no group chats (WhatsApp's Cloud API): every message is a direct one */
  readonly groups?: false;
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
  /** offers a message to the bot (a DM, or an @-mention in the group chat), with a photo if given (the text its caption) */
  send(user: ChaosUser, text: string, group: boolean, key: number, photo?: ChaosPhoto): Offered;
  /** replies recorded since the last call (text messages; attachments are uploads) */
  takeReplies(): Reply[];
  /** files the bot uploaded since the last call (`text` is the file name) */
  takeUploads?(): Reply[];
  /** every reply recorded so far */
  replyCount(): number;
  /** streaming mode: every message the bot posted, with the text it shows now (its newest edit) */
  shown?(): ShownMessage[];
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
  /**
   * connection-holding modes: when a bot first reached the platform's intake at or after `since`
   * (Telegram getUpdates, Discord IDENTIFY, Slack apps.connections.open), or undefined
   */
  intakeAfter?(since: number): number | undefined;
  /** Slack only: how the message with `key` fared */
  slackDelivery?(key: number): SlackDelivery | undefined;
  /** pushed modes (webhook, HTTP, API): where the running gateway listens (undefined while none does) */
  attach?(gatewayUrl: () => string | undefined): void;
  /** pushed modes: how the deliveries of message `key` fared */
  pushOutcomes?(key: number): readonly PushOutcome[];
  /** pushed modes: deliveries sent again after a failed attempt, so far */
  pushRetries?(): number;
  /** pushed modes: requests to the gateway on the wire right now */
  inFlight?(): number;
  /** pushed modes: deliveries not yet answered 200 and not given up (the run waits for them) */
  pushPending?(): number;
}

const USERS_PER_PLATFORM = 20;

/** the stream's users and the spare one (the last) */
export function users(id: (index: number) => string): ChaosUser[] {
  return Array.from({ length: USERS_PER_PLATFORM + 1 }, (_, index) => ({ index, id: id(index), name: `user${index}` }));
}

export function streamAndSpare(all: ChaosUser[]): { users: ChaosUser[]; spare: ChaosUser } {
  const spare = all.at(-1);
  if (spare === undefined) throw new Error('no users');
  return { users: all.slice(0, -1), spare };
}

// ---- Discord (discord.js gateway + REST) ---------------------------------------------------

const DISCORD_TOKEN = 'MTc3NzAwMjE3NzAwMjE3NzAwMg.GcHaOs.CHAOS-discord-token-0123456789abcdefgh';
const DISCORD_FIRST_USER = 378_000_000_000_000_001n;
/** the gateway opcode a new session starts with */
const DISCORD_IDENTIFY = 2;

/** a message the bot sent with files: an attachment (its content is empty), not a text reply */
const hasFiles = (m: SentMessage): boolean => (m.files ?? []).length > 0;

/** Discord: a dispatch reaches the bot only over a live session (RESUME replays what a dropped one missed). */
export function discordPlatform(): ChaosPlatform {
  let fake: FakeDiscord | null = null;
  let cursor = 0;
  let uploadCursor = 0;
  const need = (): FakeDiscord => {
    if (!fake) throw new Error('discord: start() first');
    return fake;
  };
  const list = users((i) => String(DISCORD_FIRST_USER + BigInt(i)));
  return {
    name: 'discord',
    mode: 'gateway',
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
    send(user, text, group, _key, photo) {
      const discord = need();
      const online = discord.latestReady();
      const attachments = photo ? [{ data: photo.data, fileName: photo.fileName, contentType: photo.mimeType }] : [];
      const message: DispatchedMessage = group
        ? discord.guildMessage({ user, content: text, mention: true })
        : discord.dmMessage({ user, content: text, ...(photo ? { attachments } : {}) });
      return { chatId: message.channel_id, online };
    },
    takeReplies() {
      const sent = need().sent;
      const out = sent
        .slice(cursor)
        .filter((m) => !hasFiles(m))
        .map((m) => ({ chatId: m.channel_id, text: m.content }));
      cursor = sent.length;
      return out;
    },
    takeUploads() {
      const sent = need().sent;
      const out = sent
        .slice(uploadCursor)
        .flatMap((m) => (m.files ?? []).map((f) => ({ chatId: m.channel_id, text: f.fileName })));
      uploadCursor = sent.length;
      return out;
    },
    replyCount: () => need().sent.length,
    shown: () => {
      const discord = need();
      const edited = newestEdits(
        discord.edits,
        (e) => e.id,
        (e) => e.content,
      );
      return discord.sent
        .filter((m) => !hasFiles(m))
        .map((m) => ({ id: m.id, chatId: m.channel_id, text: edited.get(m.id) ?? m.content }));
    },
    rateLimitStorm(count) {
      need().rateLimitNextSends(count, 1_000);
    },
    serverErrors(count, status) {
      for (let i = 0; i < count; i++) need().failNext('createMessage', { status });
    },
    async dropConnection() {
      await need().dropConnections(4000);
    },
    intakeAfter: (since) => need().ops.find((o) => o.op === DISCORD_IDENTIFY && o.at >= since)?.at,
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

// The platform fakes for the bad-input suite, the daemon's env and config.yaml for them, and the
// canary: a valid message from the allowed user that must still be answered after every batch.
import { type FakeDiscord, startFakeDiscord } from '../../fakes/discord-server.js';
import type { FakeOpenAI, RecordedRequest } from '../../fakes/openai-server.js';
import { type FakeSlack, startFakeSlack } from '../../fakes/slack-server.js';
import { type FakeTelegram, startFakeTelegram } from '../../fakes/telegram-server.js';
import { until } from './wait.js';

export const TG_TOKEN = '777009:BADINPUT-telegram-token-0123456789abcdef';
export const TG_SECRET = 'bad-input-webhook-secret-4f1c2e9a';
export const TG_PATH = '/telegram/webhook';
export const DISCORD_TOKEN = 'MTc3NzAwOTE3NzAwOTE3NzAwOQ.BadInp.BAD-INPUT-discord-token-0123456789abc';
export const SLACK_BOT_TOKEN = 'xoxb-7770097770-7770097771-BadInputBotToken';
export const SLACK_APP_TOKEN = 'xapp-1-A0BADINPUT1-7770097772-BadInputAppToken';
export const SLACK_SIGNING_SECRET = 'bad-input-signing-secret-9f86d081884c7d65';
export const SLACK_PATH = '/slack/events';

/** The allowed user per platform (and their DM chat). */
export const ALLOWED = {
  telegram: 4242,
  discord: { id: '377000000000000042', name: 'allowed' },
  slack: { id: 'U0ALLOWED1', dm: 'D0ALLOWED1' },
} as const;

/**
 * More allowed users: each valid input with hostile text comes from its own user, so it has its own
 * session (turns run in parallel, a /new or /stop among them cancels nothing of the others, and no
 * session's history grows with megabyte texts).
 */
export const EXTRA_USERS = 80;
export const extraUser = {
  telegram: (i: number): number => 5_000 + (i % EXTRA_USERS),
  discord: (i: number): { id: string; name: string } => ({
    id: String(377_000_000_000_001_000n + BigInt(i % EXTRA_USERS)),
    name: `extra${i % EXTRA_USERS}`,
  }),
  slack: (i: number): { id: string; dm: string } => {
    const n = String(i % EXTRA_USERS).padStart(3, '0');
    return { id: `U0EXTRA${n}`, dm: `D0EXTRA${n}` };
  },
};
const all = <T>(f: (i: number) => T): T[] => Array.from({ length: EXTRA_USERS }, (_, i) => f(i));

export interface Fakes {
  telegram: FakeTelegram;
  discord: FakeDiscord;
  slack: FakeSlack;
  close(): Promise<void>;
}

export async function startFakes(): Promise<Fakes> {
  const telegram = await startFakeTelegram({ token: TG_TOKEN, longPollCapMs: 100 });
  const discord = await startFakeDiscord({ token: DISCORD_TOKEN });
  const slack = await startFakeSlack({
    botToken: SLACK_BOT_TOKEN,
    appToken: SLACK_APP_TOKEN,
    signingSecret: SLACK_SIGNING_SECRET,
    pingIntervalMs: 5_000,
  });
  slack.addUser({ id: ALLOWED.slack.id, name: 'allowed' });
  return {
    telegram,
    discord,
    slack,
    async close() {
      await telegram.close();
      await discord.close();
      await slack.close();
    },
  };
}

export type Intake = 'http' | 'stream';

/**
 * env and `gateway.platforms` for a daemon: `http` = Telegram webhook, Slack HTTP events and
 * Discord; `stream` = Telegram long polling and Slack Socket Mode.
 */
export function platformSetup(fakes: Fakes, intake: Intake): { env: Record<string, string>; platforms: object } {
  const common = {
    TELEGRAM_BOT_TOKEN: TG_TOKEN,
    TELEGRAM_ALLOWED_USERS: [ALLOWED.telegram, ...all(extraUser.telegram)].join(','),
    SLACK_BOT_TOKEN: SLACK_BOT_TOKEN,
    SLACK_ALLOWED_USERS: [ALLOWED.slack.id, ...all((i) => extraUser.slack(i).id)].join(','),
  };
  if (intake === 'http') {
    return {
      env: {
        ...common,
        SLACK_SIGNING_SECRET: SLACK_SIGNING_SECRET,
        DISCORD_BOT_TOKEN: DISCORD_TOKEN,
        DISCORD_ALLOWED_USERS: [ALLOWED.discord.id, ...all((i) => extraUser.discord(i).id)].join(','),
      },
      platforms: {
        telegram: {
          api_root: fakes.telegram.apiRoot,
          mode: 'webhook',
          webhook_url: `https://bot.example.invalid${TG_PATH}`,
          webhook_secret: TG_SECRET,
        },
        discord: { api_base: fakes.discord.apiBase },
        slack: { api_url: fakes.slack.apiUrl, mode: 'http', events_path: SLACK_PATH },
      },
    };
  }
  return {
    env: { ...common, SLACK_APP_TOKEN: SLACK_APP_TOKEN },
    platforms: {
      telegram: { api_root: fakes.telegram.apiRoot, poll_timeout_s: 1 },
      // the default liveness (15 s): at 2 s a loaded machine (two test files at once) answered a ping
      // late now and then, the client reconnected, and the envelopes sent on the closing socket were lost
      slack: { api_url: fakes.slack.apiUrl, mode: 'socket' },
    },
  };
}

/** The user text of the last message a model request carried. */
export function lastUserText(request: RecordedRequest): string {
  const messages = (request.body?.messages ?? []) as { role?: unknown; content?: unknown }[];
  const last = [...messages].reverse().find((m) => m.role === 'user');
  return typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content ?? null);
}

/** The model echoes (the start of) the user's text: hostile text reaches the formatters and senders. */
export function echoModel(model: FakeOpenAI): void {
  model.respond((request) => ({ text: `echo: ${lastUserText(request).slice(0, 300)}` }));
}

/** HTTP POST with a per-request deadline; resolves with the status (0 when it timed out or the socket broke). */
export async function post(
  url: string,
  body: string | Uint8Array,
  headers: Record<string, string>,
  timeoutMs = 15_000,
): Promise<{ status: number; text: string; error?: string }> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    return { status: response.status, text: await response.text() };
  } catch (error) {
    return { status: 0, text: '', error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

export type Canary = (tag: string) => Promise<void>;

/** Sends a valid message and waits for the echo of `tag` to arrive on the platform. */
export function canaries(fakes: Fakes, intake: Intake, gatewayUrl: string): Record<string, Canary> {
  const { telegram, discord, slack } = fakes;
  const tgSent = (tag: string) => telegram.sent.some((m) => m.text.includes(tag));
  const slackSent = (tag: string) => slack.posted.some((m) => m.text.includes(tag));
  const tgInput = (tag: string) => ({
    chatId: ALLOWED.telegram,
    userId: ALLOWED.telegram,
    firstName: 'Ada',
    text: `canary ${tag}`,
  });
  const slackInput = (tag: string) => ({
    channel: ALLOWED.slack.dm,
    user: ALLOWED.slack.id,
    text: `canary ${tag}`,
    channelType: 'im' as const,
  });
  if (intake === 'stream') {
    return {
      telegram: async (tag) => {
        telegram.pushMessage(tgInput(tag));
        await until(`the telegram canary ${tag}`, () => tgSent(tag), 20_000);
      },
      slack: async (tag) => {
        // Slack sends an envelope again when the socket it went out on closed before its ack (the
        // client reconnecting as it was sent; the fake does not): so does the canary, once per reconnect
        let envelope = slack.pushMessage(slackInput(tag)).message;
        let connections = slack.connectionCount();
        const acked = () => slack.acks.some((ack) => ack.envelopeId === envelope.envelope_id);
        await until(
          `the slack canary ${tag}`,
          () => {
            if (!acked() && slack.connectionCount() > connections) {
              connections = slack.connectionCount();
              envelope = slack.redeliver(envelope);
            }
            return slackSent(tag);
          },
          20_000,
        );
      },
    };
  }
  return {
    telegram: async (tag) => {
      const res = await post(`${gatewayUrl}${TG_PATH}`, JSON.stringify(telegram.webhookUpdate(tgInput(tag))), {
        'content-type': 'application/json',
        'x-telegram-bot-api-secret-token': TG_SECRET,
      });
      if (res.status !== 200) throw new Error(`the telegram canary ${tag} was answered ${res.status}`);
      await until(`the telegram canary ${tag}`, () => tgSent(tag), 20_000);
    },
    discord: async (tag) => {
      discord.dmMessage({ user: ALLOWED.discord, content: `canary ${tag}` });
      await until(`the discord canary ${tag}`, () => discord.sent.some((m) => m.content.includes(tag)), 20_000);
    },
    slack: async (tag) => {
      const body = slack.eventCallback(slack.messageEvent(slackInput(tag)));
      const res = await slack.postEvent(`${gatewayUrl}${SLACK_PATH}`, body);
      if (res.status !== 200) throw new Error(`the slack canary ${tag} was answered ${res.status}`);
      await until(`the slack canary ${tag}`, () => slackSent(tag), 20_000);
    },
  };
}

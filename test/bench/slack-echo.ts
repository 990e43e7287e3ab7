// The Slack baseline for the pipeline benchmark: a bare Bolt Socket Mode app on the fake Slack that
// posts every user message's text back in its thread, and the load helper that injects one message
// on each of N channels and awaits each channel's reply (for Hermes or the bare app alike).
import { App, LogLevel, SocketModeReceiver } from '@slack/bolt';
import type { FakeSlack, PostedMessage } from '../fakes/slack-server.js';

export interface BareSlackEcho {
  stop(): Promise<void>;
}

/** Starts Bolt as its README shows it (socket mode, `say` in the thread); resolves once connected. */
export async function startBareSlackEcho(fake: FakeSlack): Promise<BareSlackEcho> {
  const receiver = new SocketModeReceiver({
    appToken: fake.appToken,
    logLevel: LogLevel.ERROR,
    installerOptions: { clientOptions: { slackApiUrl: fake.apiUrl } },
  });
  const app = new App({
    token: fake.botToken,
    receiver,
    logLevel: LogLevel.ERROR,
    clientOptions: { slackApiUrl: fake.apiUrl },
  });
  app.event('message', async ({ event, say }) => {
    if (event.subtype !== undefined || !('text' in event) || typeof event.text !== 'string') return;
    if ('bot_id' in event && event.bot_id !== undefined) return;
    await say({ text: event.text, thread_ts: event.thread_ts ?? event.ts });
  });
  await app.start();
  return {
    async stop() {
      await receiver.client.disconnect();
    },
  };
}

export interface EchoLoadOptions {
  /** how many channels, one message each, all at once */
  channels: number;
  /** 'dm': IM channels (answered by Hermes without a mention); 'mention': public channels, the bot @-mentioned */
  kind?: 'dm' | 'mention';
  /** makes channel and user ids unique across rounds; default 0 */
  round?: number;
  /** the text of message i */
  text?: (index: number) => string;
  /** a reply slower than this fails the round; default 10 000 */
  timeoutMs?: number;
}

export interface EchoLoadResult {
  /** per message: push onto the socket to the fake's chat.postMessage record, ascending */
  latenciesMs: number[];
  elapsedMs: number;
  /** the reply text per channel, in channel order */
  replies: string[];
  /** posts into channels that were not waiting (a second answer, a stray message) */
  unexpected: number;
}

/**
 * Injects one message on each of `channels` fresh channels over the fake's socket and resolves
 * once every channel got its reply (the first chat.postMessage into it); rejects on a timeout.
 * User ids are `U0BENCH<round>x<index>` (allow them, e.g. SLACK_ALLOWED_USERS=*, for Hermes).
 */
export async function injectAndAwaitReplies(fake: FakeSlack, options: EchoLoadOptions): Promise<EchoLoadResult> {
  const kind = options.kind ?? 'dm';
  const round = options.round ?? 0;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const pending = new Map<string, { index: number; sentAt: number; resolve: (post: PostedMessage) => void }>();
  const latencies: number[] = [];
  const replies: string[] = [];
  let unexpected = 0;
  const unsubscribe = fake.onPost((post) => {
    const waiter = pending.get(post.channel);
    if (waiter === undefined) {
      unexpected += 1;
      return;
    }
    pending.delete(post.channel);
    latencies.push(performance.now() - waiter.sentAt);
    waiter.resolve(post);
  });
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const waits: Promise<PostedMessage>[] = [];
    for (let index = 0; index < options.channels; index += 1) {
      const id = `BENCH${round}X${index}`;
      const channel = kind === 'dm' ? `D${id}` : `C${id}`;
      const text = options.text?.(index) ?? `bench message ${round}.${index}`;
      waits.push(
        new Promise<PostedMessage>((resolve) => {
          pending.set(channel, { index, sentAt: performance.now(), resolve });
        }).then((post) => {
          replies[index] = post.text;
          return post;
        }),
      );
      fake.pushMessage({
        channel,
        user: `U0${id}`,
        text: kind === 'dm' ? text : `<@${fake.bot.userId}> ${text}`,
        channelType: kind === 'dm' ? 'im' : 'channel',
      });
    }
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new Error(`slack echo load: ${pending.size} of ${options.channels} replies missing after ${timeoutMs} ms`),
          ),
        timeoutMs,
      );
    });
    await Promise.race([Promise.all(waits), timeout]);
    return {
      latenciesMs: latencies.sort((a, b) => a - b),
      elapsedMs: performance.now() - started,
      replies,
      unexpected,
    };
  } finally {
    clearTimeout(timer);
    unsubscribe();
  }
}

/** A DM the closed-loop bench writes in: an IM channel and its one user. */
export interface SlackChat {
  channel: string;
  user: string;
}

/** The `index`-th bench DM: channel `D0BENCH<index>`, user `U0BENCH<index>` (allow them, e.g. SLACK_ALLOWED_USERS=*). */
export function slackChat(index: number): SlackChat {
  return { channel: `D0BENCH${index}`, user: `U0BENCH${index}` };
}

/** Pushes one user message in `chat` over the fake's socket (a message event with channel_type im). */
export function injectSlackMessage(fake: FakeSlack, chat: SlackChat, text: string): void {
  fake.pushMessage({ channel: chat.channel, user: chat.user, text, channelType: 'im' });
}

/** A reply as the fake recorded it: `at` is `performance.now()` at the moment of the record. */
export interface SlackReply {
  at: number;
  text: string;
}

export interface SlackReplyWatch {
  /** resolves with the next chat.postMessage into `channel` (register before injecting) */
  next(channel: string, timeoutMs: number): Promise<SlackReply>;
  /** posts into channels where no chat was waiting (a second answer, a stray message) */
  readonly unexpected: number;
  /** stops watching */
  restore(): void;
}

/** Watches the fake's chat.postMessage records without polling (onPost runs as each is recorded). */
export function watchSlackReplies(fake: FakeSlack): SlackReplyWatch {
  const waiters = new Map<string, (reply: SlackReply) => void>();
  let unexpected = 0;
  const stop = fake.onPost((post: PostedMessage) => {
    const at = performance.now();
    const wake = waiters.get(post.channel);
    if (wake === undefined) {
      unexpected += 1;
      return;
    }
    waiters.delete(post.channel);
    wake({ at, text: post.text });
  });
  return {
    next(channel, timeoutMs) {
      if (waiters.has(channel)) return Promise.reject(new Error(`channel ${channel} already waits for a reply`));
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(channel);
          reject(new Error(`no chat.postMessage in ${channel} within ${timeoutMs} ms`));
        }, timeoutMs);
        timer.unref();
        waiters.set(channel, (reply) => {
          clearTimeout(timer);
          resolve(reply);
        });
      });
    },
    get unexpected() {
      return unexpected;
    },
    restore() {
      stop();
      waiters.clear();
    },
  };
}

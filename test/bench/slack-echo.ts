// The load helpers the Slack benches need on the fake Slack: DM chats, one message pushed over the
// socket per message, and a per-channel waiter on chat.postMessage records (the bare Bolt baseline
// is its own process: test/bench/bare/slack-echo.ts).
import type { FakeSlack, PostedMessage } from '../fakes/slack-server.js';

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

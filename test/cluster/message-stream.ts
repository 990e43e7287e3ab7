// Messages sent through the fakes of several platforms, each carrying a key (`<prefix>-m<N>`) that
// the fake model's answer repeats, and the replies the fakes recorded, counted per key. What the
// failover test (and the cluster bench) judge: every message answered exactly once, in its chat.

import { lastUserText } from '../chaos/model.js';
import type { ChaosPlatform, ChaosUser } from '../chaos/platforms.js';
import type { RecordedRequest, Reply } from '../fakes/openai-server.js';

export interface SentRecord {
  key: number;
  platform: string;
  chatId: string;
  at: number;
}

export interface ReplyRecord {
  key: number;
  platform: string;
  chatId: string;
  /** when this process read it from the fake (within one collect() period of the send) */
  at: number;
}

export class MessageStream {
  readonly sent = new Map<number, SentRecord>();
  readonly replies = new Map<number, ReplyRecord[]>();
  /** replies naming no message of this stream, or going to another chat than the message's */
  readonly stray: string[] = [];
  readonly #pattern: RegExp;
  #next = 1;
  #turn = 0;

  constructor(
    readonly prefix: string,
    readonly platforms: readonly ChaosPlatform[],
    /** how many of each platform's users take part */
    readonly usersPerPlatform: number,
  ) {
    this.#pattern = new RegExp(`${prefix}-m(\\d+)\\b`);
  }

  /** The fake model's answer: `ack <key>` for the key in the turn's message. */
  responder = (request: RecordedRequest): Reply => {
    const match = this.#pattern.exec(lastUserText(request));
    return { text: match ? `ack ${match[0]}` : 'ack (no key)' };
  };

  /** Sends one DM from `user` on `platform`; returns its key. */
  sendFrom(platform: ChaosPlatform, user: ChaosUser): number {
    const key = this.#next++;
    const offered = platform.send(user, `hello ${this.prefix}-m${key}`, false, key);
    this.sent.set(key, { key, platform: platform.name, chatId: offered.chatId, at: Date.now() });
    return key;
  }

  /** Sends the next message, platforms and users taken in turn. */
  sendNext(): number {
    const turn = this.#turn++;
    const platform = this.platforms[turn % this.platforms.length];
    if (!platform) throw new Error('no platforms');
    const user = platform.users[Math.floor(turn / this.platforms.length) % this.usersPerPlatform];
    if (!user) throw new Error(`${platform.name}: fewer users than ${this.usersPerPlatform}`);
    return this.sendFrom(platform, user);
  }

  /** One message from every taking-part user of every platform. */
  sendFromEveryone(): number[] {
    return this.platforms.flatMap((platform) =>
      platform.users.slice(0, this.usersPerPlatform).map((user) => this.sendFrom(platform, user)),
    );
  }

  /** Reads the replies the fakes recorded since the last call. */
  collect(now = Date.now()): void {
    for (const platform of this.platforms) {
      for (const reply of platform.takeReplies()) {
        const match = this.#pattern.exec(reply.text);
        const key = match ? Number(match[1]) : Number.NaN;
        const sent = this.sent.get(key);
        if (!sent || sent.chatId !== reply.chatId || sent.platform !== platform.name) {
          this.stray.push(`${platform.name} ${reply.chatId}: ${reply.text}`);
          continue;
        }
        const list = this.replies.get(key) ?? [];
        list.push({ key, platform: platform.name, chatId: reply.chatId, at: now });
        this.replies.set(key, list);
      }
    }
  }

  /** Keys not answered yet. */
  unanswered(): number[] {
    return [...this.sent.keys()].filter((key) => (this.replies.get(key)?.length ?? 0) === 0);
  }

  /** Keys answered more than once. */
  duplicated(): number[] {
    return [...this.replies].filter(([, list]) => list.length > 1).map(([key]) => key);
  }

  /** The key a transcript text names, or undefined. */
  keyOf(text: string | null): number | undefined {
    const match = text === null ? null : this.#pattern.exec(text);
    return match ? Number(match[1]) : undefined;
  }

  describe(keys: readonly number[]): string[] {
    return keys.map((key) => {
      const sent = this.sent.get(key);
      return `${this.prefix}-m${key} (${sent?.platform} ${sent?.chatId}, sent at ${sent?.at}, replies ${this.replies.get(key)?.length ?? 0})`;
    });
  }
}

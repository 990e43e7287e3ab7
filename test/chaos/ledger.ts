// Bookkeeping of the chaos run: every message offered to the bot, every reply the fakes recorded
// (attributed by the `chaos-m<N>` key the model echoes), and the verdict per message.
import { KEY_PATTERN } from './model.js';
import type { Offered, PlatformName, Reply, SlackDelivery } from './platforms.js';

export interface OfferedMessage extends Offered {
  key: number;
  platform: PlatformName;
  userId: string;
  group: boolean;
  at: number;
}

interface Replies {
  answers: number;
  apologies: number;
  /** replies that went to another chat than the message's */
  misrouted: number;
  /** when each reply was seen (the collector polls every 100 ms) */
  at: number[];
}

/** A span in which the gateway was not (fully) up: from the kill or stop signal until it answered /health again. */
export interface Outage {
  kind: 'kill' | 'graceful';
  from: number;
  to: number;
}

export type Verdict =
  | 'answered'
  | 'interrupted'
  | 'duplicated'
  /**
   * answered twice: the first send reached the platform just before a kill -9, before the gateway
   * committed its delivered mark, and the next start sent the outbox row again (the outbound
   * at-least-once window; Telegram and Slack offer no idempotency key; Discord gets the outbox row's key as an enforced nonce)
   */
  | 'resent-after-kill'
  | 'lost'
  /** Discord: dispatched while the bot had no live session (Discord never redelivers) */
  | 'discord-offline'
  /** Discord: dispatched to a live session just before a kill -9, never stored */
  | 'discord-at-kill'
  /** Slack: Bolt acknowledged the envelope (Socket Mode) or the gateway answered 200 (HTTP), the process was killed before the accept committed */
  | 'slack-acked-not-stored'
  /** Slack HTTP: the gateway answered none of Slack's 4 deliveries with a 200 and never stored the event */
  | 'slack-gave-up';

/** What state.db says about a message: its inbox statuses (normally one row). */
export type InboxLookup = (key: number) => readonly string[];

/** How close before a kill -9 a message must have arrived to be excused by it (loaded 2-core machine) */
export const OUTAGE_GRACE_MS = 3_000;
/** How far a kill -9 may be from the first copy of a reply (as the collector saw it) for the resend to be excused */
export const IN_FLIGHT_MS = 1_000;

export const APOLOGY = 'was interrupted';

export class Ledger {
  readonly messages: OfferedMessage[] = [];
  readonly #replies = new Map<number, Replies>();
  readonly unattributed: Reply[] = [];

  offer(message: OfferedMessage): void {
    this.messages.push(message);
  }

  /** Attributes replies to the messages they answer. */
  ingest(replies: readonly Reply[]): void {
    const now = Date.now();
    for (const reply of replies) {
      const match = KEY_PATTERN.exec(reply.text);
      const key = match ? Number(match[1]) : undefined;
      const message = key === undefined ? undefined : this.messages[key];
      if (key === undefined || message === undefined) {
        this.unattributed.push(reply);
        continue;
      }
      const entry = this.#replies.get(key) ?? { answers: 0, apologies: 0, misrouted: 0, at: [] };
      // an edited message counts as what it shows now, not also as what it showed before
      if (reply.replaces !== undefined) {
        if (reply.replaces.includes(APOLOGY)) entry.apologies -= 1;
        else entry.answers -= 1;
        entry.at.pop();
        if (reply.chatId !== message.chatId) entry.misrouted -= 1;
      }
      if (reply.text.includes(APOLOGY)) entry.apologies += 1;
      else entry.answers += 1;
      if (reply.chatId !== message.chatId) entry.misrouted += 1;
      entry.at.push(now);
      this.#replies.set(key, entry);
    }
  }

  repliesTo(key: number): Replies {
    return this.#replies.get(key) ?? { answers: 0, apologies: 0, misrouted: 0, at: [] };
  }

  /**
   * The verdict on an API message the client got one answer to, from the transcript: a second
   * stored exchange is explained only when the first was stored just before a kill -9 cut the
   * request (the answer never reached the client, which sent the request again).
   */
  apiVerdict(verdict: Verdict, storedAt: readonly number[], outages: readonly Outage[]): Verdict {
    if (verdict !== 'answered' || storedAt.length <= 1) return verdict;
    const [first = 0] = storedAt;
    const cut = outages.some((o) => o.kind === 'kill' && o.from >= first && o.from - first <= IN_FLIGHT_MS);
    return storedAt.length === 2 && cut ? 'resent-after-kill' : 'duplicated';
  }

  /** Messages with no reply yet. */
  unanswered(): OfferedMessage[] {
    return this.messages.filter((m) => !this.#replies.has(m.key));
  }

  misrouted(): number {
    let n = 0;
    for (const r of this.#replies.values()) n += r.misrouted;
    return n;
  }

  /** The verdict on one message, once the run is over. */
  verdict(
    message: OfferedMessage,
    inbox: InboxLookup,
    outages: readonly Outage[],
    slack: SlackDelivery | undefined,
  ): Verdict {
    const r = this.repliesTo(message.key);
    const total = r.answers + r.apologies;
    const [first = 0, second = 0] = r.at;
    if (total === 2 && r.answers === 2) {
      // the first copy went out right at a kill -9, the second only after the gateway was back
      const killed = outages.find((o) => o.kind === 'kill' && Math.abs(o.from - first) <= IN_FLIGHT_MS);
      if (killed !== undefined && second >= killed.from) return 'resent-after-kill';
    }
    if (total > 1) return 'duplicated';
    if (total === 1) return r.apologies === 1 ? 'interrupted' : 'answered';
    // never answered: excused only where the platform itself does not deliver, and the gateway never stored it
    if (inbox(message.key).length > 0) return 'lost';
    /** within the grace before a kill -9, or while the gateway was down after it */
    const near = (at: number) => outages.some((o) => o.kind === 'kill' && at >= o.from - OUTAGE_GRACE_MS && at <= o.to);
    if (message.platform === 'discord' && message.online === false) return 'discord-offline';
    // a graceful stop keeps the platforms connected through the drain: nothing is excused there
    if (message.platform === 'discord' && near(message.at)) return 'discord-at-kill';
    if (message.platform === 'slack' && slack?.ackedAt !== undefined && near(slack.ackedAt)) {
      return 'slack-acked-not-stored';
    }
    if (message.platform === 'slack' && slack?.ackedAt === undefined && slack?.gaveUp === true) return 'slack-gave-up';
    return 'lost';
  }
}

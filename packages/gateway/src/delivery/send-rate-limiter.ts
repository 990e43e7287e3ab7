/**
 * Outbound rate limits per platform (its `capabilities.sendRate`): one bucket per chat and one for
 * the whole bot, each a GCRA token bucket (the "theoretical arrival time" form: one number per
 * bucket, O(1) per send). A send first takes its chat's slot (a chat's messages queue in order),
 * waits for it, then takes a slot of the bot's bucket at the moment it is really about to go, so
 * one busy chat's queue never holds up the others. Nothing is dropped. Below the limits every
 * slot is "now" and nothing waits.
 *
 * A rate `count / perMs` with `burst` b lets at most b - 1 + count·W/perMs messages through in any
 * window W: the platform plugins pick values that keep their platform's published windows.
 */
import type { SendRate, SendRateLimits } from '@hermes/protocol';

/** Chat buckets kept before idle ones (already refilled, so equal to a fresh bucket) are swept. */
export const CHAT_BUCKETS_SWEEP_AT = 10_000;

const interval = (rate: SendRate) => rate.perMs / rate.count;
const tolerance = (rate: SendRate) => ((rate.burst ?? rate.count) - 1) * interval(rate);

export class SendRateLimiter {
  readonly #now: () => number;
  /** per bucket key: the theoretical arrival time (ms) */
  readonly #global = new Map<string, number>();
  readonly #chats = new Map<string, number>();

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /**
   * Waits (with `sleep`) until `limits` let one message to `chatId` on `platform` go; `undefined` when
   * it may go now (no limits, or both slots are "now"): nothing to await.
   */
  wait(
    platform: string,
    chatId: string,
    limits: SendRateLimits | undefined,
    sleep: (ms: number) => Promise<void>,
  ): Promise<void> | undefined {
    if (!limits) return undefined;
    const chatWait = this.reserveChat(platform, chatId, limits.perChat);
    if (chatWait > 0) return this.#waitChatThenGlobal(chatWait, platform, limits, sleep);
    const globalWait = this.reserveGlobal(platform, limits.global);
    return globalWait > 0 ? sleep(globalWait) : undefined;
  }

  /** the chat's wait, then the bot's slot taken when it is really about to go */
  async #waitChatThenGlobal(
    chatWait: number,
    platform: string,
    limits: SendRateLimits,
    sleep: (ms: number) => Promise<void>,
  ): Promise<void> {
    await sleep(chatWait);
    const globalWait = this.reserveGlobal(platform, limits.global);
    if (globalWait > 0) await sleep(globalWait);
  }

  /** Takes the chat's next slot; returns the ms to wait for it (whole ms, rounded up; 0 with no rate). */
  reserveChat(platform: string, chatId: string, rate: SendRate | undefined): number {
    if (!rate) return 0;
    const now = this.#now();
    if (this.#chats.size >= CHAT_BUCKETS_SWEEP_AT) this.#sweep(now);
    return this.#take(this.#chats, `${platform}\u0000${chatId}`, rate, now);
  }

  /** Takes the platform's next bot-wide slot; returns the ms to wait for it. */
  reserveGlobal(platform: string, rate: SendRate | undefined): number {
    return rate ? this.#take(this.#global, platform, rate, this.#now()) : 0;
  }

  /** Chat buckets held (for tests of the sweep). */
  get chatBuckets(): number {
    return this.#chats.size;
  }

  #take(map: Map<string, number>, key: string, rate: SendRate, now: number): number {
    const tat = map.get(key) ?? now;
    const at = Math.max(now, tat - tolerance(rate));
    map.set(key, Math.max(tat, at) + interval(rate));
    // whole milliseconds, rounded up so a send is never early; float noise (1e-9) is no wait
    return Math.max(0, Math.ceil(at - now - 1e-6));
  }

  /** Drops chat buckets that have refilled completely (tat past): forgetting them changes nothing. */
  #sweep(now: number): void {
    for (const [key, tat] of this.#chats) if (tat <= now) this.#chats.delete(key);
  }
}

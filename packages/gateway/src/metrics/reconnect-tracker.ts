/**
 * Counts a platform's returns to `connected` from sampled states. An adapter's state carries the
 * time it was entered (`since`), so a reconnect between two samples is still seen: the platform is
 * connected again, since a different moment. Two reconnects between samples count as one.
 */
import type { PlatformState } from '@hermes/protocol';

export class ReconnectTracker {
  readonly #connectedSince = new Map<string, number>();

  /** True when `state` is a connection made after the platform's first one, not seen before. */
  observe(platform: string, state: PlatformState): boolean {
    if (state.state !== 'connected') return false;
    const last = this.#connectedSince.get(platform);
    if (last === state.since) return false;
    this.#connectedSince.set(platform, state.since);
    return last !== undefined;
  }
}

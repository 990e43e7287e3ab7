/**
 * The gateway's own events (`gateway:startup`, `session:*`, `agent:*`, `cron:*`, `command:*`) with
 * `prefix:*` wildcards, delivered through the one hook bus as its `gateway_event` hook: a handler
 * is a bus registration (owner `gateway:NAME`) that runs only for the events its patterns match,
 * awaited with its timeout like every hook callback; one that throws or outlives it is logged with
 * its name and the event, and skipped (not cancelled). Emitting never waits and never throws: the
 * bus is invoked on a later tick, off the message path.
 */
import type { HookBus } from '@hermes/plugins';
import { type GatewayEventContext, type GatewayEventType, gatewayEventMatches } from '@hermes/protocol';

export type { GatewayEventContext, GatewayEventType } from '@hermes/protocol';

export type GatewayEventHandler = (type: GatewayEventType, context: Record<string, unknown>) => unknown;

/** What the events need of the hook bus. */
export type GatewayEventBus = Pick<HookBus, 'register' | 'invoke' | 'count'>;

/** A handler's time before it is reported as hanging (gateway.hook_timeout_s). */
export const GATEWAY_HANDLER_TIMEOUT_DEFAULT_MS = 30_000;

/** True when a subscription pattern (`agent:end`, `command:*`, `*`) covers an event type. */
export const eventMatches = gatewayEventMatches;

export class GatewayEvents {
  readonly #bus: GatewayEventBus;
  readonly #timeoutMs: number;

  constructor(bus: GatewayEventBus, options: { timeoutMs?: number } = {}) {
    this.#bus = bus;
    this.#timeoutMs = options.timeoutMs ?? GATEWAY_HANDLER_TIMEOUT_DEFAULT_MS;
  }

  /** Subscribes `handler` to every event matching `pattern` (or any of several); returns the unsubscribe function. */
  on(pattern: string | readonly string[], handler: GatewayEventHandler, name = 'anonymous'): () => void {
    const patterns = typeof pattern === 'string' ? [pattern] : [...pattern];
    return this.#bus.register(
      'gateway_event',
      ({ event, context }) => handler(event, context),
      { source: 'gateway', name },
      {
        timeoutMs: this.#timeoutMs,
        when: ({ event }) => patterns.some((p) => eventMatches(p, event)),
        subject: ({ event }) => event,
      },
    );
  }

  /**
   * Fires an event through the bus on a later tick (each handler at most once per event, one after
   * another in subscription order). The context is checked against the event's type
   * (gateway-events.ts in @hermes/protocol).
   */
  /** Whether a handler is subscribed (an emit then fires): a caller may skip building a payload otherwise. */
  heard(): boolean {
    return this.#bus.count('gateway_event') > 0;
  }

  emit<T extends GatewayEventType>(type: T, context: GatewayEventContext<T>): void {
    if (this.#bus.count('gateway_event') === 0) return;
    setImmediate(() => void this.#bus.invoke('gateway_event', { event: type, context }));
  }
}

/**
 * The gateway's own events (`gateway:startup`, `session:*`, `agent:*`, `command:*`) with
 * `prefix:*` wildcards. Handlers run off the message path: emit never waits and never throws; a
 * handler that fails or outlives the timeout is logged with its name (it is not cancelled).
 */
import { type GatewayEventContext, type GatewayEventType, gatewayEventMatches, type Logger } from '@hermes/protocol';

export type { GatewayEventContext, GatewayEventType } from '@hermes/protocol';

export type GatewayEventHandler = (type: GatewayEventType, context: Record<string, unknown>) => unknown;

/**
 * Told how each handler run ended (metrics): its duration (the timeout for one reported as
 * hanging) and whether it returned, threw or outlived the timeout. Must not throw.
 */
export type GatewayHandlerObserver = (handler: string, durationMs: number, outcome: 'ok' | 'error' | 'timeout') => void;

/** A handler's time before it is reported as hanging. */
export const GATEWAY_HANDLER_TIMEOUT_DEFAULT_MS = 30_000;

/** True when a subscription pattern (`agent:end`, `command:*`, `*`) covers an event type. */
export const eventMatches = gatewayEventMatches;

interface Subscription {
  patterns: readonly string[];
  handler: GatewayEventHandler;
  name: string;
}

export class GatewayEvents {
  readonly #subs: Subscription[] = [];
  readonly #logger: Logger;
  readonly #timeoutMs: number;
  readonly #observer: GatewayHandlerObserver | undefined;

  constructor(logger: Logger, options: { timeoutMs?: number; observer?: GatewayHandlerObserver } = {}) {
    this.#logger = logger;
    this.#timeoutMs = options.timeoutMs ?? GATEWAY_HANDLER_TIMEOUT_DEFAULT_MS;
    this.#observer = options.observer;
  }

  /** Subscribes `handler` to every event matching `pattern` (or any of several); returns the unsubscribe function. */
  on(pattern: string | readonly string[], handler: GatewayEventHandler, name = 'anonymous'): () => void {
    const sub: Subscription = { patterns: typeof pattern === 'string' ? [pattern] : pattern, handler, name };
    this.#subs.push(sub);
    return () => {
      const i = this.#subs.indexOf(sub);
      if (i >= 0) this.#subs.splice(i, 1);
    };
  }

  /** How many handlers are subscribed. */
  count(): number {
    return this.#subs.length;
  }

  /**
   * Fires an event to its subscribers in the background (each handler at most once per event).
   * The context is checked against the event's type (gateway-events.ts in @hermes/protocol).
   */
  emit<T extends GatewayEventType>(type: T, context: GatewayEventContext<T>): void {
    for (const sub of this.#subs) {
      if (!sub.patterns.some((p) => eventMatches(p, type))) continue;
      setImmediate(() => void this.#run(sub, type, context as Record<string, unknown>));
    }
  }

  async #run(sub: Subscription, type: GatewayEventType, context: Record<string, unknown>): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const started = performance.now();
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.#timeoutMs);
      timer.unref();
    });
    try {
      const outcome = await Promise.race([Promise.resolve().then(() => sub.handler(type, context)), timedOut]);
      this.#observer?.(sub.name, performance.now() - started, outcome === 'timeout' ? 'timeout' : 'ok');
      if (outcome === 'timeout') {
        this.#logger.warn(
          { event: type, handler: sub.name, timeoutMs: this.#timeoutMs },
          `gateway hook ${sub.name} did not finish ${type} within ${this.#timeoutMs} ms; left running in the background`,
        );
      }
    } catch (err) {
      this.#observer?.(sub.name, performance.now() - started, 'error');
      const message = err instanceof Error ? err.message : String(err);
      this.#logger.warn(
        { err, event: type, handler: sub.name },
        `gateway hook ${sub.name} failed on ${type}: ${message}`,
      );
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * The gateway's own events (`gateway:startup`, `session:*`, `agent:*`, `command:*`) with
 * `prefix:*` wildcards. Handlers run off the message path: emit never waits and never throws.
 */
import type { Logger } from '@hermes/protocol';

export type GatewayEventType =
  | 'gateway:startup'
  | 'session:start'
  | 'session:end'
  | 'session:reset'
  | 'agent:start'
  | 'agent:step'
  | 'agent:end'
  | `command:${string}`;

export type GatewayEventHandler = (type: GatewayEventType, context: Record<string, unknown>) => unknown;

/** True when a subscription pattern (`agent:end`, `command:*`) covers an event type. */
export function eventMatches(pattern: string, type: string): boolean {
  if (pattern === type || pattern === '*') return true;
  return pattern.endsWith(':*') && type.startsWith(pattern.slice(0, -1));
}

export class GatewayEvents {
  readonly #subs: { pattern: string; handler: GatewayEventHandler; name: string }[] = [];
  readonly #logger: Logger;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** Subscribes `handler` to every event matching `pattern`; returns the unsubscribe function. */
  on(pattern: string, handler: GatewayEventHandler, name = 'anonymous'): () => void {
    const sub = { pattern, handler, name };
    this.#subs.push(sub);
    return () => {
      const i = this.#subs.indexOf(sub);
      if (i >= 0) this.#subs.splice(i, 1);
    };
  }

  /** Fires an event to its subscribers in the background. */
  emit(type: GatewayEventType, context: Record<string, unknown>): void {
    for (const sub of this.#subs) {
      if (!eventMatches(sub.pattern, type)) continue;
      queueMicrotask(() => {
        Promise.resolve()
          .then(() => sub.handler(type, context))
          .catch((err: unknown) =>
            this.#logger.warn(
              { err, event: type, handler: sub.name },
              `gateway event handler ${sub.name} failed on ${type}`,
            ),
          );
      });
    }
  }
}

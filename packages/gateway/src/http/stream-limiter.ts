/**
 * Long-lived streams (the web chat's and the console's Server-Sent Events) are limited per client
 * address and in total (`gateway.max_streams_per_client`, `gateway.max_streams`), so a flood of
 * streams, logged in or not, cannot hold the connections everything else needs. A stream over a
 * limit is answered 429 with `Retry-After`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

const DECORATION = 'hermesStreams';

export interface StreamLimits {
  total: number;
  perClient: number;
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = { total: 64, perClient: 8 };

export class StreamLimiter {
  readonly #limits: StreamLimits;
  readonly #byClient = new Map<string, number>();
  #open = 0;

  constructor(limits: StreamLimits = DEFAULT_STREAM_LIMITS) {
    this.#limits = limits;
  }

  get open(): number {
    return this.#open;
  }

  /** A release function when the client may open one more stream, else why not. */
  admit(client: string): { release(): void } | { refused: string } {
    const mine = this.#byClient.get(client) ?? 0;
    if (mine >= this.#limits.perClient)
      return { refused: `too many open streams from this address (${this.#limits.perClient} at most)` };
    if (this.#open >= this.#limits.total) return { refused: `too many open streams (${this.#limits.total} at most)` };
    this.#byClient.set(client, mine + 1);
    this.#open += 1;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.#open -= 1;
        const left = (this.#byClient.get(client) ?? 1) - 1;
        if (left <= 0) this.#byClient.delete(client);
        else this.#byClient.set(client, left);
      },
    };
  }
}

export function installStreamLimiter(app: FastifyInstance, limiter: StreamLimiter): void {
  app.decorate(DECORATION, limiter);
}

/** The server's stream limiter (one that admits everything when none was installed). */
export function streamLimiterOf(request: FastifyRequest): StreamLimiter {
  return (
    (request.server as unknown as { [DECORATION]?: StreamLimiter })[DECORATION] ??
    new StreamLimiter({ total: Number.POSITIVE_INFINITY, perClient: Number.POSITIVE_INFINITY })
  );
}

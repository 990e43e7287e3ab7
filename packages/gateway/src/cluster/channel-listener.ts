// A LISTEN on a dedicated connection that comes back by itself: what the session-control and
// shared-settings channels share. A lost connection is replaced after a second; notifications
// sent while none listened are lost (their owners read what they need again at start).
import type { Logger } from '@hermes/protocol';
import type pg from 'pg';
import { connectDedicated, destroyClient, type PgTarget } from './pg-types.js';

export class ChannelListener {
  #client: pg.Client | undefined;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(
    private readonly target: PgTarget,
    private readonly channel: string,
    private readonly onPayload: (payload: string) => void,
    private readonly log: Logger,
  ) {}

  /** Resolves once listening (or once the first attempt failed: it retries in the background). */
  async start(): Promise<void> {
    try {
      const client = await connectDedicated(this.target, `hermes ${this.channel}`);
      client.on('notification', (msg) => {
        if (msg.channel === this.channel && msg.payload) this.onPayload(msg.payload);
      });
      const lost = () => {
        if (this.#client !== client) return;
        this.#client = undefined;
        destroyClient(client);
        this.#retry();
      };
      client.on('error', lost);
      client.on('end', lost);
      await client.query(`LISTEN ${this.channel}`);
      if (this.#stopped) return destroyClient(client);
      this.#client = client;
    } catch (err) {
      this.log.warn({ err: (err as Error).message, channel: this.channel }, 'cannot LISTEN; retrying');
      this.#retry();
    }
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    if (this.#client) destroyClient(this.#client);
    this.#client = undefined;
  }

  #retry(): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => void this.start(), 1000);
    this.#timer.unref();
  }
}

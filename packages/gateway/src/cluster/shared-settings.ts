// Settings a chat command changes that every instance must see at once (`/sethome`'s
// <PLATFORM>_HOME_CHANNEL): stored in the shared database (platform_state, platform `_cluster`),
// announced with NOTIFY hermes_cluster_settings, applied by every instance LISTENing, and read
// again by an instance when it starts (the database holds the latest value, whoever set it).
import { type Logger, silentLogger } from '@hermes/protocol';
import type pg from 'pg';
import { ChannelListener } from './channel-listener.js';
import type { PgTarget } from './pg-types.js';

export const SETTINGS_CHANNEL = 'hermes_cluster_settings';
const PLATFORM = '_cluster';

export interface SharedSettingsOptions {
  pool: pg.Pool;
  target: PgTarget;
  /** applies a value (set by this instance or another) */
  apply(name: string, value: string): void;
  log?: Logger;
}

export class SharedSettings {
  readonly #listener: ChannelListener;
  readonly #log: Logger;

  constructor(private readonly opts: SharedSettingsOptions) {
    this.#log = (opts.log ?? silentLogger).child({ component: 'cluster-settings' });
    this.#listener = new ChannelListener(opts.target, SETTINGS_CHANNEL, (payload) => this.#receive(payload), this.#log);
  }

  /** Listens for changes, then applies every stored value. */
  async start(): Promise<void> {
    await this.#listener.start();
    const res = await this.opts.pool.query<{ key: string; value: string }>(
      'SELECT key, value FROM platform_state WHERE platform = $1',
      [PLATFORM],
    );
    for (const row of res.rows) this.opts.apply(row.key, row.value);
  }

  /** Stores `value` and tells every instance (this one applies it through the notification too). */
  async set(name: string, value: string): Promise<void> {
    await this.opts.pool.query(
      `WITH up AS (
         INSERT INTO platform_state (platform, key, value, updated_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (platform, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at)
       SELECT pg_notify($5, $6)`,
      [PLATFORM, name, value, Date.now(), SETTINGS_CHANNEL, JSON.stringify({ name, value })],
    );
  }

  async stop(): Promise<void> {
    this.#listener.stop();
  }

  #receive(payload: string): void {
    try {
      const { name, value } = JSON.parse(payload) as { name: unknown; value: unknown };
      if (typeof name === 'string' && typeof value === 'string') this.opts.apply(name, value);
    } catch (err) {
      this.#log.warn({ err: (err as Error).message }, 'unreadable cluster settings notification');
    }
  }
}

// Platform leases: one holder per connection-holding platform (Telegram polling, the Discord
// gateway, Slack Socket Mode) across every instance sharing one PostgreSQL database.
//
// A lease is a session-level advisory lock taken on a dedicated connection. PostgreSQL frees it
// the moment that connection ends, so a holder killed with `kill -9` loses it at once (its socket
// closes) and a holder whose machine vanished loses it after the server-side TCP keep-alive gives
// up. Instances that do not hold a platform try again every `retryMs`, so one of them takes it
// over within `failoverS`. A holder that cannot reach PostgreSQL treats that as a lost lease and
// calls `onLost` (stop the platform now) before the server could hand the lease to anyone else.
import { hostname } from 'node:os';
import { type Logger, silentLogger } from '@hermes/protocol';
import type pg from 'pg';
import {
  connectDedicated,
  destroyClient,
  LOCK_KEY_SQL,
  type PgTarget,
  PLATFORM_LOCK_PREFIX,
  withTimeout,
} from './pg-types.js';
import { type LeaseTimings, leaseTimings } from './timings.js';

export interface PlatformLeaseOptions {
  target: PgTarget;
  instanceId: string;
  /** the platform keys this instance can run, e.g. `telegram`, `discord`, `slack` */
  platforms: readonly string[];
  /** takeover time after a holder's death (gateway.cluster.failover_s); default 10 */
  failoverS?: number;
  /** this instance now holds `platform`: start it */
  onAcquired(platform: string): void | Promise<void>;
  /** this instance no longer holds `platform` (connection lost, check failed, or released): stop it at once */
  onLost(platform: string, reason: string): void | Promise<void>;
  log?: Logger;
}

export class PlatformLeases {
  readonly timings: LeaseTimings;
  private client: pg.Client | undefined;
  private readonly held = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> = Promise.resolve();
  private callbacks: Promise<void> = Promise.resolve();
  private stopped = false;
  private readonly log: Logger;

  constructor(private readonly opts: PlatformLeaseOptions) {
    this.timings = leaseTimings(opts.failoverS);
    this.log = (opts.log ?? silentLogger).child({ component: 'platform-leases' });
  }

  /** Starts trying to take every platform; resolves after the first attempt. */
  async start(): Promise<void> {
    await this.runTick();
  }

  /** The platforms this instance holds right now. */
  holding(): string[] {
    return [...this.held].sort();
  }

  /** Releases every lease (onLost with reason `released`) and closes the lock connection. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.ticking;
    const client = this.client;
    this.client = undefined;
    if (client) {
      for (const platform of this.held) {
        await client
          .query(`SELECT pg_advisory_unlock(${LOCK_KEY_SQL('$1')})`, [PLATFORM_LOCK_PREFIX + platform])
          .catch(() => undefined);
      }
      await client
        .query('DELETE FROM hermes_cluster_platforms WHERE backend_pid = pg_backend_pid()')
        .catch(() => undefined);
    }
    await this.loseAll('released');
    if (client) destroyClient(client);
  }

  private runTick(): Promise<void> {
    this.ticking = this.tick()
      .catch((err: unknown) => {
        if (this.client) return this.connectionLost(this.client, `PostgreSQL error: ${message(err)}`);
        this.log.warn({ err: message(err) }, 'cannot set up the platform lease connection; retrying');
        return undefined;
      })
      .finally(() => {
        if (!this.stopped) this.timer = setTimeout(() => void this.runTick(), this.timings.retryMs);
      });
    return this.ticking;
  }

  private async tick(): Promise<void> {
    // a platform being stopped (onLost) is stopped before it can be taken again
    await this.callbacks;
    if (this.stopped) return;
    const client = this.client ?? (await this.connect());
    if (!client) return;
    if (this.held.size > 0) {
      // a holder proves its connection every period; silence means the lease may be gone
      await withTimeout(client.query('SELECT 1'), this.timings.checkTimeoutMs, 'lease connection check');
    }
    for (const platform of this.opts.platforms) {
      if (this.held.has(platform) || this.stopped || this.client !== client) continue;
      const res = await withTimeout(
        client.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(${LOCK_KEY_SQL('$1')}) AS ok`, [
          PLATFORM_LOCK_PREFIX + platform,
        ]),
        this.timings.checkTimeoutMs,
        `lease attempt for ${platform}`,
      );
      if (res.rows[0]?.ok !== true) continue;
      this.held.add(platform);
      await client.query(
        `INSERT INTO hermes_cluster_platforms (platform_key, instance_id, backend_pid, acquired_at)
         VALUES ($1, $2, pg_backend_pid(), now())
         ON CONFLICT (platform_key) DO UPDATE
           SET instance_id = EXCLUDED.instance_id, backend_pid = EXCLUDED.backend_pid, acquired_at = EXCLUDED.acquired_at`,
        [platform, this.opts.instanceId],
      );
      this.log.info({ platform, instance: this.opts.instanceId }, 'platform lease acquired');
      await this.callback('onAcquired', platform);
    }
  }

  private async connect(): Promise<pg.Client | undefined> {
    let fresh: pg.Client;
    try {
      fresh = await connectDedicated(this.opts.target, `hermes ${this.opts.instanceId} leases`);
    } catch (err) {
      this.log.warn({ err: message(err) }, 'cannot reach PostgreSQL for platform leases; retrying');
      return undefined;
    }
    const { idleS, intervalS, count } = this.timings.keepalive;
    try {
      await fresh.query(
        `SELECT set_config('tcp_keepalives_idle', $1, false), set_config('tcp_keepalives_interval', $2, false),
                set_config('tcp_keepalives_count', $3, false)`,
        [String(idleS), String(intervalS), String(count)],
      );
    } catch (err) {
      destroyClient(fresh);
      throw err;
    }
    fresh.on('error', (err) => void this.connectionLost(fresh, `lease connection error: ${err.message}`));
    fresh.on('end', () => void this.connectionLost(fresh, 'lease connection closed'));
    if (this.stopped) {
      destroyClient(fresh);
      return undefined;
    }
    this.client = fresh;
    return fresh;
  }

  private async connectionLost(which: pg.Client | undefined, reason: string): Promise<void> {
    if (!which || which !== this.client) return;
    this.client = undefined;
    destroyClient(which);
    this.log.warn({ reason, platforms: this.holding() }, 'platform leases lost');
    await this.loseAll(reason);
  }

  private async loseAll(reason: string): Promise<void> {
    const lost = [...this.held];
    this.held.clear();
    for (const platform of lost) await this.callback('onLost', platform, reason);
  }

  /** Runs the callbacks one at a time, in the order of the events: a stop never overlaps a start. */
  private callback(name: 'onAcquired' | 'onLost', platform: string, reason = ''): Promise<void> {
    this.callbacks = this.callbacks.then(async () => {
      try {
        if (name === 'onAcquired') await this.opts.onAcquired(platform);
        else await this.opts.onLost(platform, reason);
      } catch (err) {
        // the lease stays as it is: a platform that fails to start here would fail on every instance
        this.log.error({ platform, err: message(err) }, `${name} callback failed`);
      }
    });
    return this.callbacks;
  }
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** A default instance id: host, pid and start time, unique enough across restarts. */
export function defaultInstanceId(): string {
  return `${hostname()}-${process.pid}-${Date.now().toString(36)}`;
}

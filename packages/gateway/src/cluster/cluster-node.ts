// One gateway instance in a cluster sharing a PostgreSQL database (docs/scaling.md): it registers
// itself (membership), runs the platforms every instance runs (webhooks, the API platform) at
// once, takes turns with the others on the connection-holding ones (platform leases), and resumes
// unfinished inbox rows of instances that stopped beating, each row on exactly one instance.
import type { InboundSink, Logger, PlatformAdapter } from '@hermes/protocol';
import type { AsyncStore, InboxRow } from '@hermes/store';
import type pg from 'pg';
import type { LaunchPorts } from '../runner/launch.js';
import type { SessionGuard } from '../sessions/session-guard.js';
import { ClusterMembership, clusterMembers, platformHolders } from './membership.js';
import type { PgTarget } from './pg-types.js';
import { PlatformLeases } from './platform-leases.js';
import { SessionControl } from './session-control.js';
import { SessionLeases } from './session-leases.js';
import { SharedSettings } from './shared-settings.js';
import { leaseTimings } from './timings.js';

/** Rows of these platforms have no adapter: any instance answers them (the API platform, cron). */
const ADAPTERLESS = ['api', 'cron'];

export interface ClusterNodeOptions {
  pool: pg.Pool;
  /** the store's inbox: unfinished rows are claimed through it, as on one instance */
  inbox: Pick<AsyncStore['inbox'], 'claimUnfinished'>;
  target: PgTarget;
  instanceId: string;
  /** gateway.cluster.failover_s */
  failoverS: number;
  /** reads a platform's state again before this instance takes it over */
  reloadState(platform: string): Promise<void>;
  /** sessions running at once at most (gateway.max_concurrent_runs): the session-lease connections */
  maxConcurrentRuns: number;
  /** applies a shared setting (`/sethome` on any instance: <PLATFORM>_HOME_CHANNEL) */
  applySetting(name: string, value: string): void;
  logger: Logger;
}

export interface ClusterStatus {
  instance: string;
  members: { instance: string; host: string; pid: number; alive: boolean; platforms: string[] }[];
  /** platform -> the instance holding its connection */
  holders: Record<string, string>;
  /** age in seconds of the oldest answer not yet sent (null: none waiting) */
  outbox_lag_s: number | null;
}

/** Something exactly one instance runs at a time (the cron scheduler), under a lease of its name. */
export interface Singleton {
  start(): Promise<void>;
  stop(): Promise<void>;
}

export class ClusterNode {
  readonly #opts: ClusterNodeOptions;
  readonly #membership: ClusterMembership;
  readonly #staleMs: number;
  #leases: PlatformLeases | null = null;
  readonly #sessions: SessionLeases;
  readonly #control: SessionControl;
  readonly #settings: SharedSettings;
  #leased = new Set<string>();
  readonly #singletons = new Map<string, Singleton>();
  #timer: NodeJS.Timeout | undefined;
  #claiming: Promise<void> = Promise.resolve();
  #stopped = false;
  /** rows this id owns that were accepted before this are a previous process's (a restart) */
  readonly #startedAt = Date.now();

  constructor(opts: ClusterNodeOptions) {
    this.#opts = opts;
    const { retryMs } = leaseTimings(opts.failoverS);
    this.#staleMs = opts.failoverS * 1000;
    this.#membership = new ClusterMembership({
      pool: opts.pool,
      instanceId: opts.instanceId,
      heartbeatMs: Math.min(2000, retryMs),
      log: opts.logger,
    });
    // a lane waiting for a session's lease holds a connection too: one per running lane, and spare
    this.#sessions = new SessionLeases({
      target: opts.target,
      maxConnections: opts.maxConcurrentRuns + 2,
      log: opts.logger,
    });
    this.#settings = new SharedSettings({
      pool: opts.pool,
      target: opts.target,
      apply: (name, value) => {
        // only what /sethome sets: a notification never reaches any other variable
        if (/^[A-Z0-9_]+_HOME_CHANNEL$/.test(name)) opts.applySetting(name, value);
      },
      log: opts.logger,
    });
    this.#control = new SessionControl({
      pool: opts.pool,
      target: opts.target,
      instanceId: opts.instanceId,
      log: opts.logger,
    });
  }

  /**
   * One run per session across instances, for sessions more than one instance can receive
   * (webhook platforms, the API platform): a connection-holding platform's sessions only ever
   * reach the instance holding it.
   */
  readonly sessionGuard: SessionGuard = {
    shared: (sessionKey) => !this.#leased.has(sessionKey.slice(0, sessionKey.indexOf(':'))),
    run: async (sessionKey, run, { interrupt }) => {
      let started = false;
      const go = () => {
        started = true;
        return run();
      };
      try {
        const now = await this.#sessions.tryRunExclusive(sessionKey, go);
        if (now.ran) return;
        // running on another instance: ask it to stop that run (busy mode interrupt), then wait for the lease
        if (interrupt) await this.#control.send(sessionKey, 'interrupt').catch(() => false);
        await this.#sessions.runExclusive(sessionKey, go);
      } catch (err) {
        if (started) throw err;
        // no lease to be had (PostgreSQL refused a connection): the message is answered anyway, and
        // the turn's own writes say what is wrong, rather than a job that never runs
        this.#opts.logger.error({ err, session: sessionKey }, 'no session lease: running this turn without it');
        await run();
      }
    },
    tryRun: async (sessionKey, run) => {
      const platform = sessionKey.slice(0, sessionKey.indexOf(':'));
      // a connection-holding platform's sessions run only where it is held: there, the lanes exclude turns
      if (this.#leased.has(platform)) {
        if (this.standby(platform)) return false;
        await run();
        return true;
      }
      let started = false;
      try {
        const result = await this.#sessions.tryRunExclusive(sessionKey, () => {
          started = true;
          return run();
        });
        return result.ran;
      } catch (err) {
        if (started) throw err;
        this.#opts.logger.warn({ err, session: sessionKey }, 'no session lease: the idle sweep skips this session');
        return false;
      }
    },
    stopElsewhere: (sessionKey) => this.#control.send(sessionKey, 'stop'),
    handle: (handler) => this.#control.handle(handler),
  };

  /** Whether `platform` takes turns across instances and this instance does not hold it now. */
  standby(platform: string): boolean {
    return this.#leased.has(platform) && !(this.#leases?.holding().includes(platform) ?? false);
  }

  /** Stores a setting every instance applies at once (`/sethome`), this one included. */
  shareSetting(name: string, value: string): Promise<void> {
    return this.#settings.set(name, value);
  }

  /** Runs `role` on whichever one instance holds the lease `name` (call before launch). */
  addSingleton(name: string, role: Singleton): void {
    this.#singletons.set(name, role);
  }

  /** The gateway's `launch` in a cluster (Gateway deps `launch`). */
  launch = async (ports: LaunchPorts): Promise<void> => {
    const { logger } = this.#opts;
    await this.#membership.start();
    await this.#control.start();
    await this.#settings.start();
    const adapters = [...ports.adapters.values()];
    const shared = adapters.filter((a) => a.holdsConnection !== true);
    this.#leased = new Set(adapters.filter((a) => a.holdsConnection === true).map((a) => a.name));
    const anyInstance = [...ADAPTERLESS, ...shared.map((a) => a.name)];
    // rows of shared platforms this id left unfinished (a restart) or that nobody owns
    const resume = async (rows: Promise<InboxRow[]>) => {
      const claimed = await rows;
      if (claimed.length > 0 && ports.accepting()) ports.recover(claimed);
    };
    await resume(this.#claim(ADAPTERLESS, 'start'));
    // each platform's leftovers are claimed before its adapter starts: a 'start' claim takes every
    // unfinished row this id owns, so one made after would take the rows the adapter has just
    // accepted (and is running) too, and run them a second time
    await Promise.all(
      shared.map(async (adapter) => {
        const leftovers = await this.#claim([adapter.name], 'start');
        await startAdapter(adapter, ports.sink, logger);
        await resume(Promise.resolve(leftovers));
      }),
    );
    const byName = new Map(adapters.map((a) => [a.name, a]));
    this.#leases = new PlatformLeases({
      target: this.#opts.target,
      instanceId: this.#opts.instanceId,
      platforms: [...this.#leased, ...this.#singletons.keys()],
      failoverS: this.#opts.failoverS,
      log: logger,
      onAcquired: async (platform) => {
        const singleton = this.#singletons.get(platform);
        if (singleton) return this.#stopped ? undefined : singleton.start();
        const adapter = byName.get(platform);
        if (!adapter || this.#stopped) return;
        await this.#opts.reloadState(platform); // the previous holder moved its offset on
        // claimed before the adapter starts (see above): after, the rows it accepts at once (a
        // Discord catch-up, queued updates) would be taken for leftovers and run twice
        const leftovers = [...(await this.#claim([platform], 'start')), ...(await this.#claim([platform], 'orphans'))];
        await startAdapter(adapter, ports.sink, logger);
        await resume(Promise.resolve(leftovers));
      },
      onLost: async (platform, reason) => {
        const singleton = this.#singletons.get(platform);
        if (singleton) return singleton.stop();
        logger.warn({ platform, reason }, `platform ${platform} handed back: another instance may take it`);
        await byName.get(platform)?.stop();
      },
    });
    await this.#leases.start();
    // rows of instances that died: claimed once their heartbeat is older than failover_s
    const sweep = () => {
      if (this.#stopped) return;
      const mine = [...anyInstance, ...(this.#leases?.holding() ?? [])];
      this.#claiming = resume(this.#claim(mine, 'orphans'))
        .catch((err: unknown) => logger.warn({ err }, 'cannot claim unfinished rows of stopped instances'))
        .finally(() => {
          if (!this.#stopped) this.#timer = setTimeout(sweep, leaseTimings(this.#opts.failoverS).retryMs).unref();
        });
    };
    sweep();
  };

  /** The cluster as /health and `gateway status --json` show it. */
  async status(): Promise<ClusterStatus> {
    const { pool, instanceId } = this.#opts;
    const [members, holders, lag] = await Promise.all([
      clusterMembers(pool, this.#staleMs),
      platformHolders(pool),
      pool.query<{ created_at: number | null }>(
        `SELECT MIN(created_at) AS created_at FROM outbox WHERE status = 'pending'`,
      ),
    ]);
    const oldest = lag.rows[0]?.created_at ?? null;
    return {
      instance: instanceId,
      members: members.map((m) => ({
        instance: m.instanceId,
        host: m.host,
        pid: m.pid,
        alive: m.alive,
        platforms: m.platforms,
      })),
      holders: Object.fromEntries(holders),
      outbox_lag_s: oldest === null ? null : Math.max(0, Math.round((Date.now() - oldest) / 100) / 10),
    };
  }

  /** Releases the platform leases (their adapters stop) and leaves the cluster. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#claiming;
    await this.#leases?.stop();
    await this.#control.stop();
    await this.#settings.stop();
    await this.#sessions.close().catch(() => undefined);
    await this.#membership.stop().catch(() => undefined);
  }

  #claim(platforms: readonly string[], from: 'start' | 'orphans'): Promise<InboxRow[]> {
    return this.#opts.inbox.claimUnfinished({
      owner: this.#opts.instanceId,
      platforms,
      from,
      staleMs: this.#staleMs,
      acceptedBefore: this.#startedAt,
    });
  }
}

async function startAdapter(adapter: PlatformAdapter, sink: InboundSink, logger: Logger): Promise<void> {
  try {
    await adapter.start(sink);
  } catch (err) {
    logger.error({ err, platform: adapter.name }, `platform ${adapter.name} failed to start`);
  }
}

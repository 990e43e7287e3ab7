// Membership: each instance registers itself (id, host, pid, started, heartbeat) so status can
// list the members and which instance holds which platform. A member whose heartbeat is older than
// `staleAfterMs` is shown as not alive (it may have died without deregistering); platform holders
// are read from PostgreSQL's own lock table, so a dead holder is never reported as holding.
import { hostname } from 'node:os';
import { type Logger, silentLogger } from '@hermes/protocol';
import type pg from 'pg';
import { LOCK_KEY_SQL, PLATFORM_LOCK_PREFIX } from './pg-types.js';

export interface MembershipOptions {
  pool: pg.Pool;
  instanceId: string;
  /** default 2000 ms */
  heartbeatMs?: number;
  log?: Logger;
}

export interface ClusterMember {
  instanceId: string;
  host: string;
  pid: number;
  startedAt: Date;
  heartbeatAt: Date;
  alive: boolean;
  platforms: string[];
}

export class ClusterMembership {
  private timer: NodeJS.Timeout | undefined;
  private readonly startedAt = new Date();
  private readonly log: Logger;

  constructor(private readonly opts: MembershipOptions) {
    this.log = (opts.log ?? silentLogger).child({ component: 'membership' });
  }

  async start(): Promise<void> {
    await this.beat();
    this.timer = setInterval(
      () => void this.beat().catch((err: Error) => this.log.warn({ err: err.message }, 'membership heartbeat failed')),
      this.opts.heartbeatMs ?? 2000,
    );
  }

  /** Deregisters (a graceful stop); a killed instance just stops beating. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.opts.pool.query('DELETE FROM hermes_cluster_members WHERE instance_id = $1', [this.opts.instanceId]);
  }

  private async beat(): Promise<void> {
    await this.opts.pool.query(
      `INSERT INTO hermes_cluster_members (instance_id, host, pid, started_at, heartbeat_at)
       VALUES ($1, $2, $3, $4, now())
       ON CONFLICT (instance_id) DO UPDATE SET heartbeat_at = now()`,
      [this.opts.instanceId, hostname(), process.pid, this.startedAt],
    );
  }
}

/** The platforms whose lease is held right now, by instance id (checked against pg_locks). */
export async function platformHolders(db: pg.Pool | pg.Client): Promise<Map<string, string>> {
  const key = LOCK_KEY_SQL(`'${PLATFORM_LOCK_PREFIX}' || h.platform_key`);
  const res = await db.query<{ platform_key: string; instance_id: string }>(
    `SELECT h.platform_key, h.instance_id FROM hermes_cluster_platforms h
     WHERE EXISTS (
       SELECT 1 FROM pg_locks l
       WHERE l.locktype = 'advisory' AND l.granted AND l.pid = h.backend_pid AND l.objsubid = 1
         AND l.classid = ((${key} >> 32) & 4294967295)::oid
         AND l.objid = (${key} & 4294967295)::oid)`,
  );
  return new Map(res.rows.map((r) => [r.platform_key, r.instance_id]));
}

/** Every registered member, alive or stale, with the platforms it holds. */
export async function clusterMembers(db: pg.Pool | pg.Client, staleAfterMs = 10_000): Promise<ClusterMember[]> {
  const holders = await platformHolders(db);
  const res = await db.query<{
    instance_id: string;
    host: string;
    pid: number;
    started_at: Date;
    heartbeat_at: Date;
    alive: boolean;
  }>(
    `SELECT instance_id, host, pid, started_at, heartbeat_at,
            heartbeat_at > now() - make_interval(secs => $1::double precision / 1000) AS alive
     FROM hermes_cluster_members ORDER BY started_at, instance_id`,
    [staleAfterMs],
  );
  return res.rows.map((r) => ({
    instanceId: r.instance_id,
    host: r.host,
    pid: r.pid,
    startedAt: r.started_at,
    heartbeatAt: r.heartbeat_at,
    alive: r.alive,
    platforms: [...holders]
      .filter(([, id]) => id === r.instance_id)
      .map(([p]) => p)
      .sort(),
  }));
}

// Cluster mode (CHAOS_CLUSTER=2, `npm run test:chaos:cluster`): the run's gateway is several
// `hermes gateway run` instances, one HERMES_HOME each, on one PostgreSQL database (a server of
// test/helpers/postgres.ts, started here outside vitest's hooks). Kill -9, SIGTERM and restart
// faults hit one instance drawn from the seed (the crash-loop fault: every instance); webhooks and
// API clients reach the live instances in turn, as behind a load balancer; the audit reads the
// database. Without CHAOS_CLUSTER the target is the one gateway of GatewayControl, as before.
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { type PostgresServer, startPostgres } from '../helpers/postgres.js';
import { tempHome } from '../helpers/run-hermes.js';
import { auditState, type StateAudit } from './audit.js';
import { auditPostgres } from './audit-postgres.js';
import { GatewayControl, type GatewayTarget } from './gateway-control.js';
import { CONTROL_FILE, EFFECTS_FILE, prepareHome } from './home.js';
import type { Rng } from './rng.js';
import { platformStates } from './wait.js';

/** instances in the run: 1 (the default) is the single-gateway run */
export const CLUSTER_SIZE = Math.max(1, Number(process.env.CHAOS_CLUSTER ?? 1));
/** gateway.cluster.failover_s of the cluster run: a killed holder's platforms move within this */
export const CLUSTER_FAILOVER_S = 3;

export interface ChaosTarget {
  readonly control: GatewayTarget;
  /** every instance's HERMES_HOME, the first one's first (its control file is every instance's) */
  readonly homes: readonly string[];
  /** the platforms whose adapter is connected on some instance (the API platform has none) */
  connected(): Promise<ReadonlySet<string>>;
  /** what the store holds after the run */
  audit(): Promise<StateAudit>;
  /** stops the database (cluster mode); the run removes the homes when it passed */
  close(): Promise<void>;
}

/** Several GatewayControls driven as one target. */
export class ClusterControl implements GatewayTarget {
  readonly #members: readonly GatewayControl[];
  readonly #rng: Rng;
  #turn = 0;

  constructor(members: readonly GatewayControl[], rng: Rng) {
    this.#members = members;
    this.#rng = rng;
  }

  get maxConcurrent(): number {
    return Math.max(...this.#members.map((m) => m.maxConcurrent));
  }

  #live(): GatewayControl[] {
    return this.#members.filter((m) => m.pid() !== undefined);
  }

  pid(): number | undefined {
    return this.#live()[0]?.pid();
  }

  url(): string | undefined {
    const live = this.#live();
    return live.length === 0 ? undefined : live[this.#turn++ % live.length]?.url();
  }

  sampleProcesses(everyMs?: number): void {
    for (const m of this.#members) m.sampleProcesses(everyMs);
  }

  stopSampling(): void {
    for (const m of this.#members) m.stopSampling();
  }

  async start(): Promise<void> {
    for (const m of this.#members) if (m.pid() === undefined) await m.start();
  }

  restart(): Promise<void> {
    return this.#rng.pick([...this.#members]).restart();
  }

  async stop(): Promise<void> {
    for (const m of this.#live()) await m.stop();
  }

  signal(signal: 'SIGKILL' | 'SIGTERM'): Promise<number> {
    const live = this.#live();
    if (live.length === 0) throw new Error('no gateway instance is running');
    return this.#rng.pick(live).signal(signal);
  }

  signalEvery(signal: 'SIGKILL' | 'SIGTERM'): Promise<number[]> {
    return Promise.all(this.#live().map((m) => m.signal(signal)));
  }

  killAll(): number[] {
    return this.#members.flatMap((m) => m.killAll());
  }
}

/**
 * The run's gateway with its home(s) prepared (prepareHome): one GatewayControl on `home`, or
 * (CLUSTER_SIZE > 1) a PostgreSQL server and CLUSTER_SIZE homes alike, each instance with its own
 * id and lock dir.
 */
export async function chaosTarget(
  home: string,
  env: Record<string, string>,
  platforms: Record<string, Record<string, unknown>>,
  options: { streaming?: boolean },
  rng: Rng,
): Promise<ChaosTarget> {
  const prepare = (h: string, cluster?: { failoverS: number }) => prepareHome(h, platforms, { ...options, cluster });
  if (CLUSTER_SIZE === 1) {
    prepare(home);
    return {
      control: new GatewayControl(home, env),
      homes: [home],
      connected: async () =>
        new Set(
          Object.entries(await platformStates(home))
            .filter(([, state]) => state === 'connected')
            .map(([name]) => name),
        ),
      audit: async () => auditState(home),
      close: async () => {},
    };
  }
  const server: PostgresServer = await startPostgres();
  const database = await server.newDatabase('chaos');
  const homes = [home, ...Array.from({ length: CLUSTER_SIZE - 1 }, () => tempHome())];
  const members = homes.map((h, i) => {
    prepare(h, { failoverS: CLUSTER_FAILOVER_S });
    if (i > 0) {
      // the hooks' control file and effects log are the first home's: one switch for every instance
      for (const file of [CONTROL_FILE, EFFECTS_FILE]) {
        rmSync(join(h, file), { force: true });
        symlinkSync(join(home, file), join(h, file));
      }
    }
    mkdirSync(join(h, 'locks'), { recursive: true });
    return new GatewayControl(h, {
      ...env,
      HERMES_HOME: h,
      HERMES_LOCK_DIR: join(h, 'locks'),
      HERMES_INSTANCE_ID: `chaos-${i + 1}`,
      HERMES_DATABASE_URL: database,
    });
  });
  console.log(
    `chaos: cluster of ${CLUSTER_SIZE} instances on PostgreSQL (failover_s ${CLUSTER_FAILOVER_S}): ${homes.join(', ')}`,
  );
  return {
    control: new ClusterControl(members, rng),
    homes,
    async connected() {
      const connected = new Set<string>();
      for (const h of homes)
        for (const [name, state] of Object.entries(await platformStates(h)))
          if (state === 'connected') connected.add(name);
      return connected;
    },
    audit: () => auditPostgres(database),
    close: () => server.stop(),
  };
}

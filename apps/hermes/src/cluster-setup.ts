/**
 * `gateway run` on PostgreSQL (state.backend: postgres): the gateway's store on the database and
 * this process as one instance of a cluster sharing it (docs/scaling.md). One instance alone is a
 * cluster of one: the same code runs.
 */

import type { HermesConfig } from '@hermes/config';
import { type GatewayMetrics, type GatewayStore, gatewayStore, PlatformStateCache } from '@hermes/gateway';
import { ClusterNode, defaultInstanceId } from '@hermes/gateway/cluster';
import type { Logger } from '@hermes/protocol';
import type { AsyncStore, PgStore } from '@hermes/store';
import { envUrl } from './database-url.js';
import type { AgentRuntime } from './runtime.js';

export interface ClusterSetup {
  instanceId: string;
  store: GatewayStore;
  node: ClusterNode;
}

/** The instance id: HERMES_INSTANCE_ID, else gateway.cluster.instance_id, else host, pid and time. */
export function instanceIdFor(config: HermesConfig, env: NodeJS.ProcessEnv): string {
  const fromEnv = env.HERMES_INSTANCE_ID?.trim();
  return fromEnv || config.gateway.cluster.instance_id || defaultInstanceId();
}

export async function setUpCluster(options: {
  config: HermesConfig;
  env: NodeJS.ProcessEnv;
  pg: PgStore;
  /** the connection string the lease connection opens (the pool's own) */
  url: string;
  metrics: GatewayMetrics;
  logger: Logger;
}): Promise<ClusterSetup> {
  const { config, pg, logger } = options;
  const instanceId = instanceIdFor(config, options.env);
  const log = logger.child({ component: 'cluster', instance: instanceId });
  const adapterState = new PlatformStateCache(pg.platformState, log);
  await adapterState.load(); // adapters read their state synchronously once created
  const store = gatewayStore(pg, { adapterState, owner: instanceId });
  const node = new ClusterNode({
    pool: pg.pool,
    inbox: pg.inbox,
    target: options.url,
    instanceId,
    failoverS: config.gateway.cluster.failover_s,
    reloadState: (platform) => adapterState.load(platform),
    maxConcurrentRuns: config.gateway.max_concurrent_runs,
    applySetting: (name, value) => {
      process.env[name] = value;
      options.env[name] = value;
    },
    logger: log,
  });
  options.metrics.labelInstance(instanceId);
  return { instanceId, store, node };
}

/** The cluster of `rt`'s gateway: `rt.store` is the PostgreSQL store (state.backend postgres). */
export async function clusterFor(
  rt: Pick<AgentRuntime, 'store' | 'env' | 'config' | 'logger'>,
  metrics: GatewayMetrics,
): Promise<ClusterSetup> {
  const pg = rt.store;
  if (!isPgStore(pg)) throw new Error(`the cluster needs the PostgreSQL store, not ${pg.backend}`);
  const url = envUrl(rt.env, 'state.backend postgres'); // read (and checked) when the runtime opened it
  return setUpCluster({ config: rt.config, env: rt.env, pg, url, metrics, logger: rt.logger });
}

function isPgStore(store: AsyncStore): store is PgStore {
  return store.backend === 'postgres' && 'pool' in store && 'transaction' in store;
}

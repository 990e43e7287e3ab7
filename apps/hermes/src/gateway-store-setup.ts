/**
 * The gateway's store: the runtime's state store (`rt.store`, either backend) as `GatewayStore`.
 * On SQLite the adapters read their state from the synchronous repository; on PostgreSQL from an
 * in-memory copy, and this process is one instance of the cluster sharing the database
 * (cluster-setup.ts; one instance alone is a cluster of one).
 */
import { type GatewayMetrics, type GatewayStore, gatewayStore } from '@hermes/gateway';
import type { ClusterSetup } from './cluster-setup.js';
import type { AgentRuntime } from './runtime.js';

export async function gatewayStoreFor(
  rt: Pick<AgentRuntime, 'store' | 'sqlite' | 'env' | 'config' | 'logger'>,
  metrics: GatewayMetrics,
): Promise<{ gatewayStore: GatewayStore; cluster: ClusterSetup | null }> {
  if (rt.sqlite !== null) {
    return { gatewayStore: gatewayStore(rt.store, { adapterState: rt.sqlite.platformState }), cluster: null };
  }
  // loaded here: the cluster modules load `pg`, which a gateway on state.db never needs
  const { clusterFor } = await import('./cluster-setup.js');
  const cluster = await clusterFor(rt, metrics);
  return { gatewayStore: cluster.store, cluster };
}

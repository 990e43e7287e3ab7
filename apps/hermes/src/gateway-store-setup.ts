/**
 * The gateway's store: the asynchronous ports (`GatewayStore`) over the runtime's state store. On
 * SQLite, `sqliteGatewayStore` over the synchronous store (its group commit needs it); on
 * PostgreSQL, the cluster's store, and this process one instance of the cluster sharing the
 * database (cluster-setup.ts; one instance alone is a cluster of one).
 */
import { type GatewayMetrics, type GatewayStore, sqliteGatewayStore } from '@hermes/gateway';
import type { ClusterSetup } from './cluster-setup.js';
import type { AgentRuntime } from './runtime.js';

export async function gatewayStoreFor(
  rt: Pick<AgentRuntime, 'store' | 'sqlite' | 'env' | 'config' | 'logger'>,
  metrics: GatewayMetrics,
): Promise<{ gatewayStore: GatewayStore; cluster: ClusterSetup | null }> {
  if (rt.sqlite !== null) return { gatewayStore: sqliteGatewayStore(rt.sqlite), cluster: null };
  // loaded here: the cluster modules load `pg`, which a gateway on state.db never needs
  const { clusterFor } = await import('./cluster-setup.js');
  const cluster = await clusterFor(rt, metrics);
  return { gatewayStore: cluster.store, cluster };
}

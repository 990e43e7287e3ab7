// Cluster primitives on PostgreSQL (issue #21): platform leases, session leases, session work with
// LISTEN/NOTIFY wake-ups, membership. Standalone modules: `hermes gateway run` does not use them
// yet (docs/scaling.md). Imported as `@hermes/gateway/cluster` so the gateway does not load `pg`.

export { ClusterNode, type ClusterNodeOptions, type ClusterStatus } from './cluster-node.js';
export {
  type ClusterMember,
  ClusterMembership,
  clusterMembers,
  type MembershipOptions,
  platformHolders,
} from './membership.js';
export type { PgTarget } from './pg-types.js';
export { defaultInstanceId, type PlatformLeaseOptions, PlatformLeases } from './platform-leases.js';
export { CLUSTER_SCHEMA_SQL, ensureClusterSchema } from './schema.js';
export { type SessionLeaseOptions, SessionLeases, type TryResult } from './session-leases.js';
export {
  enqueueSessionWork,
  type SessionWorkOptions,
  SessionWorkQueue,
  WORK_CHANNEL,
  type WorkItem,
} from './session-work.js';
export { DEFAULT_FAILOVER_S, type LeaseTimings, leaseTimings } from './timings.js';

// Several gateway instances on one PostgreSQL database (docs/scaling.md): the instance's node, and
// the primitives it is built on (membership, platform leases, session leases). Their tables come
// with the store's migrations (@hermes/store, migration 13). Imported as `@hermes/gateway/cluster`
// so a gateway on state.db does not load `pg`.

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
export { type SessionLeaseOptions, SessionLeases, type TryResult } from './session-leases.js';
export { DEFAULT_FAILOVER_S, type LeaseTimings, leaseTimings } from './timings.js';

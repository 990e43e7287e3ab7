// The gateway's store over a SQLite state.db, as `hermes gateway run` builds it on SQLite
// (apps/hermes/src/gateway-store-setup.ts): the async store with its group commit, and the
// adapters' state read from the synchronous repository.
import { type GatewayStore, gatewayStore } from '@hermes/gateway';
import { asyncSqliteStore, type Store } from '@hermes/store';

/** `store` as the gateway's store. */
export function sqliteGatewayStore(store: Store): GatewayStore {
  return gatewayStore(asyncSqliteStore(store), { adapterState: store.platformState });
}

/**
 * The gateway's store: the asynchronous ports (`GatewayStore`) over the runtime's state store. On
 * SQLite, `sqliteGatewayStore` over the synchronous store (its group commit needs it); PostgreSQL
 * is refused until its GatewayStore is wired in.
 */
import { type GatewayStore, sqliteGatewayStore } from '@hermes/gateway';
import { ERROR_CODES, HermesError } from '@hermes/protocol';
import type { AgentRuntime } from './runtime.js';

/** The GatewayStore of `rt`'s backend; throws a CONFIG_KEY HermesError on postgres (not wired yet). */
export function gatewayStoreFor(rt: Pick<AgentRuntime, 'store' | 'sqlite'>): GatewayStore {
  if (rt.sqlite !== null) return sqliteGatewayStore(rt.sqlite);
  throw new HermesError(
    ERROR_CODES.CONFIG_KEY,
    `gateway run on PostgreSQL: not wired yet (state.backend is ${rt.store.backend}, ${rt.store.location}); ` +
      'set state.backend: sqlite to run the gateway on state.db',
  );
}

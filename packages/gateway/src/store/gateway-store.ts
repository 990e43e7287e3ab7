/**
 * The store as the gateway uses it: the state store of either backend (`AsyncStore` of
 * @hermes/store: its repositories, the unit of work's commit, recovery's claims), with the units
 * committed as this instance, and the adapters' own state read synchronously. The gateway declares
 * no store types of its own: every repository type is the store's.
 */
import type { AsyncStore, CommitWork, PlatformStateRepo, UnitOfWork } from '@hermes/store';

/** The adapters' own state (the plugin API's `PlatformState`, synchronous: Telegram's offset, Discord's cursors). */
export interface AdapterState extends Pick<PlatformStateRepo, 'get' | 'set' | 'delete'> {
  /** takes in the state a committed unit of work wrote (an in-memory copy following the database) */
  committed?(work: UnitOfWork): void;
}

export interface GatewayStore extends Omit<AsyncStore, 'commit' | 'close'> {
  /** commits a unit of work in one transaction (the rows it accepts owned by this instance) */
  commit: CommitWork;
  /** the adapters' state: SQLite's repository itself, or PostgreSQL's in-memory copy (platform-state-cache.ts) */
  adapterState: AdapterState;
}

export interface GatewayStoreOptions {
  adapterState: AdapterState;
  /** this instance's id (several instances on PostgreSQL): the owner of the inbox rows it accepts */
  owner?: string;
}

/** The gateway's store over `store` (opened by the caller, who closes it). */
export function gatewayStore(store: AsyncStore, options: GatewayStoreOptions): GatewayStore {
  const { adapterState } = options;
  const commitOptions = options.owner === undefined ? {} : { owner: options.owner };
  const follow = adapterState.committed?.bind(adapterState);
  return {
    ...store,
    adapterState,
    commit: follow
      ? async (work) => {
          const results = await store.commit(work, commitOptions);
          follow(work);
          return results;
        }
      : (work) => store.commit(work, commitOptions),
  };
}

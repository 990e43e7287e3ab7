/**
 * The PostgreSQL store behind the gateway's asynchronous ports. A unit of work is one transaction
 * on one pooled connection (`PgStore.transaction`: every repository joins it); units commit one at
 * a time in the order they were issued. Accepted inbox rows carry this instance's id (`owner`), so that after
 * a crash the cluster resumes each unfinished row on exactly one instance (cluster/claims.ts).
 */
import type { Logger } from '@hermes/protocol';
import type { PgRepos, PgStore } from '@hermes/store';
import type { GatewayStore } from './gateway-store.js';
import { PlatformStateCache } from './platform-state-cache.js';
import type { StoreWrite, WriteResult } from './unit-of-work.js';

export interface PgGatewayStoreOptions {
  /** this gateway instance's id, written as each accepted inbox row's owner */
  instanceId: string;
  logger: Logger;
}

export interface PgGatewayStore extends GatewayStore {
  platformState: PlatformStateCache;
}

/** Applies one write with the repositories of the unit's transaction. */
async function applyPgWrite(repos: PgRepos, write: StoreWrite, owner: string): Promise<WriteResult> {
  switch (write.kind) {
    case 'inbox.accept': {
      const { sessionKey, state } = write;
      const options = { owner, ...(sessionKey !== undefined ? { sessionKey } : {}), ...(state ? { state } : {}) };
      return repos.inbox.accept(write.platform, write.key, write.payload, options);
    }
    case 'inbox.mark':
      await repos.inbox.mark(write.id, write.status);
      return undefined;
    case 'transcripts.append':
      return repos.transcripts.append(write.sessionId, write.messages);
    case 'outbox.enqueue':
      return repos.outbox.enqueue([...write.rows]);
    case 'outbox.markSent':
      await repos.outbox.markSent(write.id, write.platformMessageId);
      return undefined;
    case 'outbox.markFailed':
      await repos.outbox.markFailed(write.id, write.error);
      return undefined;
    case 'outbox.recordAttempt':
      await repos.outbox.recordAttempt(write.id, write.error);
      return undefined;
    case 'platformState.set':
      await repos.platformState.set(write.platform, write.key, write.value);
      return undefined;
    case 'platformState.delete':
      await repos.platformState.delete(write.platform, write.key);
      return undefined;
  }
}

/** The platform-state values a committed unit wrote (the in-memory copy follows them). */
function stateWrites(write: StoreWrite): { platform: string; key: string; value: string | undefined }[] {
  if (write.kind === 'platformState.set') return [{ platform: write.platform, key: write.key, value: write.value }];
  if (write.kind === 'platformState.delete') return [{ platform: write.platform, key: write.key, value: undefined }];
  if (write.kind === 'inbox.accept' && write.state) {
    return Object.entries(write.state).map(([key, value]) => ({ platform: write.platform, key, value }));
  }
  return [];
}

/** The gateway's store on `store` (opened with `openPgStore`); call `platformState.load()` before starting. */
export function pgGatewayStore(store: PgStore, options: PgGatewayStoreOptions): PgGatewayStore {
  const owner = options.instanceId;
  const platformState = new PlatformStateCache(
    {
      all: async () =>
        (
          await store.pool.query<{ platform: string; key: string; value: string }>(
            'SELECT platform, key, value FROM platform_state',
          )
        ).rows,
      set: (platform, key, value) => store.platformState.set(platform, key, value),
      delete: (platform, key) => store.platformState.delete(platform, key),
    },
    options.logger,
  );
  let pendingCounts: readonly { platform: string; count: number }[] = [];
  let committed: Promise<unknown> = Promise.resolve();
  return {
    sessions: store.sessions,
    transcripts: store.transcripts,
    pairing: store.pairing,
    platformState,
    apiResponses: store.apiResponses,
    childSessions: store.childSessions,
    // recovery on PostgreSQL is the cluster node's (ClusterNode.launch: claims per platform, at
    // start and from instances that stopped beating); the single-instance launch is never used here
    inbox: { pending: async () => [] },
    outbox: {
      forInbox: (inboxId) => store.outbox.forInbox(inboxId),
      // read at scrape time, synchronously: the last count, refreshed in the background
      pendingCounts: () => {
        void store.outbox
          .pendingCounts()
          .then((counts) => {
            pendingCounts = counts;
          })
          .catch(() => undefined);
        return pendingCounts;
      },
    },
    readState: (platform, key) => store.platformState.get(platform, key),
    // units commit one at a time, in the order they were issued, as the SQLite group commit applies
    // them: a later unit's write must never land before an earlier one's (a platform's state list
    // written whole by successive accepts, an inbox row's `processing` then `done` mark)
    commit: (work) => {
      const run = committed.then(() =>
        store.transaction(async (repos) => {
          const out: WriteResult[] = [];
          for (const write of work) out.push(await applyPgWrite(repos, write, owner));
          return out;
        }),
      );
      committed = run.catch(() => undefined);
      return run.then((results) => {
        for (const write of work) {
          for (const s of stateWrites(write)) platformState.remember(s.platform, s.key, s.value);
        }
        return results;
      });
    },
  };
}

/**
 * The handles pre_gateway_dispatch gives plugins: new objects with the documented operations only
 * (DispatchHandles in @hermes/protocol), so a plugin never holds the live gateway or the store.
 */
import {
  type DispatchHandles,
  type GroupSessions,
  type HookSendResult,
  type Logger,
  type MessageEvent,
  sessionKeyFor,
} from '@hermes/protocol';
import type { AsyncStore, CommitWork } from '@hermes/store';

export interface DispatchHandleDeps {
  /** the connected platforms */
  platforms: () => string[];
  send: (target: string, text: string) => Promise<HookSendResult>;
  sessions: Pick<AsyncStore['sessions'], 'activeByKey'>;
  /** commits the ingested message (a unit of work) */
  commit: CommitWork;
  groupSessions: GroupSessions;
  /** the transcript of the session key changed behind the gateway's session cache */
  changed: (sessionKey: string) => void;
  logger: Logger;
}

/**
 * The ingests a hook started: the dispatch stage waits for them before it goes on, so a hook that
 * does not await `ingest` still has its message in the transcript before the chat's next turn.
 */
export class PendingIngests {
  readonly #pending = new Set<Promise<unknown>>();

  add(work: Promise<unknown>): void {
    this.#pending.add(work);
    void work.finally(() => this.#pending.delete(work));
  }

  /** Waits for the pending ingests; `undefined` at once when there are none (nothing to await). */
  settled(): Promise<void> | undefined {
    return this.#pending.size > 0 ? this.#drain() : undefined;
  }

  async #drain(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }
}

export function createDispatchHandles(deps: DispatchHandleDeps, pending: PendingIngests): DispatchHandles {
  const ingest = async (event: MessageEvent, text: string): Promise<boolean> => {
    const key = sessionKeyFor(event.source, deps.groupSessions);
    const session = await deps.sessions.activeByKey(key);
    if (!session) return false;
    deps.changed(key); // from now on the cached history is not the whole transcript
    await deps.commit([
      { kind: 'transcripts.append', sessionId: session.id, messages: [{ role: 'user', content: text }] },
    ]);
    deps.changed(key);
    return true;
  };
  return {
    gateway: Object.freeze({
      platforms: () => deps.platforms(),
      send: (target: string, text: string) => deps.send(target, text),
      // what a shell hook's JSON shows for the handle
      toJSON: () => '[gateway handle]',
    }),
    sessionStore: Object.freeze({
      ingest(event: MessageEvent, text: string = event.text): Promise<boolean> {
        // never rejects: a plugin that does not await it must not leave an unhandled rejection
        const done = ingest(event, text).catch((err: unknown) => {
          deps.logger.error({ err, platform: event.platform }, 'sessionStore.ingest: the message was not stored');
          return false;
        });
        pending.add(done);
        return done;
      },
      toJSON: () => '[session store handle]',
    }),
  };
}

/** The handles of a gateway: created on first use, then the same objects for every hook call. */
export function lazyDispatchHandles(deps: () => DispatchHandleDeps, pending: PendingIngests): () => DispatchHandles {
  let handles: DispatchHandles | undefined;
  return () => {
    handles ??= createDispatchHandles(deps(), pending);
    return handles;
  };
}

/** What a gateway gives its handles: its platforms and hook sends, the store's sessions and commits. */
export function gatewayHandleDeps(
  gateway: { adapters: ReadonlyMap<string, unknown>; hookSend(target: string, text: string): Promise<HookSendResult> },
  deps: {
    store: { sessions: DispatchHandleDeps['sessions']; commit: CommitWork };
    settings: { groupSessions: GroupSessions };
    logger: Logger;
  },
  cache: { forget(sessionKey: string): void },
): DispatchHandleDeps {
  return {
    platforms: () => [...gateway.adapters.keys()],
    send: (target, text) => gateway.hookSend(target, text),
    sessions: deps.store.sessions,
    commit: deps.store.commit,
    groupSessions: deps.settings.groupSessions,
    changed: (key) => cache.forget(key),
    logger: deps.logger,
  };
}

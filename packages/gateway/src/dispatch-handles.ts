/**
 * The handles pre_gateway_dispatch gives plugins: new objects with the documented operations only
 * (DispatchHandles in @hermes/protocol), so a plugin never holds the live gateway or the store.
 */
import type { DispatchHandles, HookSendResult, MessageEvent } from '@hermes/protocol';
import type { SessionsPort, TranscriptsPort } from './ports.js';
import { type GroupSessions, sessionKeyFor } from './session-key.js';

export interface DispatchHandleDeps {
  /** the connected platforms */
  platforms: () => string[];
  send: (target: string, text: string) => Promise<HookSendResult>;
  sessions: Pick<SessionsPort, 'activeByKey'>;
  transcripts: Pick<TranscriptsPort, 'append'>;
  groupSessions: GroupSessions;
  /** the transcript of the session key changed behind the gateway's session cache */
  changed: (sessionKey: string) => void;
}

export function createDispatchHandles(deps: DispatchHandleDeps): DispatchHandles {
  return {
    gateway: Object.freeze({
      platforms: () => deps.platforms(),
      send: (target: string, text: string) => deps.send(target, text),
      // what a shell hook's JSON shows for the handle
      toJSON: () => '[gateway handle]',
    }),
    sessionStore: Object.freeze({
      ingest(event: MessageEvent, text: string = event.text): boolean {
        const key = sessionKeyFor(event.source, deps.groupSessions);
        const session = deps.sessions.activeByKey(key);
        if (!session) return false;
        deps.transcripts.append(session.id, [{ role: 'user', content: text }]);
        deps.changed(key);
        return true;
      },
      toJSON: () => '[session store handle]',
    }),
  };
}

/** The handles of a gateway: created on first use, then the same objects for every hook call. */
export function lazyDispatchHandles(deps: () => DispatchHandleDeps): () => DispatchHandles {
  let handles: DispatchHandles | undefined;
  return () => {
    handles ??= createDispatchHandles(deps());
    return handles;
  };
}

/** What a gateway gives its handles: its platforms and hook sends, the store's sessions and transcripts. */
export function gatewayHandleDeps(
  gateway: { adapters: ReadonlyMap<string, unknown>; hookSend(target: string, text: string): Promise<HookSendResult> },
  deps: {
    store: { sessions: DispatchHandleDeps['sessions']; transcripts: DispatchHandleDeps['transcripts'] };
    settings: { groupSessions: GroupSessions };
  },
  cache: { forget(sessionKey: string): void },
): DispatchHandleDeps {
  return {
    platforms: () => [...gateway.adapters.keys()],
    send: (target, text) => gateway.hookSend(target, text),
    sessions: deps.store.sessions,
    transcripts: deps.store.transcripts,
    groupSessions: deps.settings.groupSessions,
    changed: (key) => cache.forget(key),
  };
}

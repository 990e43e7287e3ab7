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

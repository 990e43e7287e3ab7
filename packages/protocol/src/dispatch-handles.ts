/**
 * What pre_gateway_dispatch hands a plugin besides the message: narrow handles with the documented
 * operations only, never the live gateway or its state database.
 */
import type { HookSendResult } from './gateway-hooks.js';
import type { MessageEvent } from './message-event.js';

/** The running gateway, as a pre_gateway_dispatch callback may use it. */
export interface DispatchGateway {
  /** the connected platforms' names */
  platforms(): string[];
  /**
   * Sends Markdown through the gateway's delivery, as a gateway hook's `send`: `target` is a
   * platform (its home channel), `home`, or `platform:CHAT_ID[:THREAD_ID]`.
   */
  send(target: string, text: string): Promise<HookSendResult>;
}

/** The session store, as a pre_gateway_dispatch callback may use it: silent transcript ingestion. */
export interface DispatchSessionStore {
  /**
   * Appends `text` (default: the message's text) as a user message to the active session of the
   * message's chat, without a turn or a reply (pair it with `{action: "skip"}`). Resolves false when
   * the chat has no active session yet (nothing is written), or when the write failed (logged); never
   * rejects. The gateway waits for it before the message goes on, so a hook need not await it.
   */
  ingest(event: MessageEvent, text?: string): Promise<boolean>;
}

/** The handles of pre_gateway_dispatch's payload. */
export interface DispatchHandles {
  gateway: DispatchGateway;
  sessionStore: DispatchSessionStore;
}

/**
 * Gateway hooks (`HERMES_HOME/hooks/<dir>/HOOK.yaml` + a handler): what a handler receives (the
 * events and their contexts: gateway-events.ts). Types only; the gateway implements them.
 */
import type { GatewayEventType } from './gateway-events.js';
import type { Logger } from './logger.js';

/** What a one-shot agent run returns to a hook. */
export interface HookAgentResult {
  status: 'completed' | 'interrupted' | 'failed' | 'max_iterations' | 'unavailable';
  /** the final answer, null when there is none */
  text: string | null;
  error?: string;
}

/** A send's outcome: `ok`, or why it did not go out. */
export interface HookSendResult {
  ok: boolean;
  error?: string;
}

/** The third argument of `handle`: what a gateway hook may use, without importing gateway internals. */
export interface GatewayHookApi {
  /** the hook's name (HOOK.yaml `name`) */
  readonly name: string;
  /** a logger whose lines carry the hook's name, into the gateway's log */
  readonly logger: Logger;
  /** HERMES_HOME */
  readonly home: string;
  /**
   * Sends Markdown through the gateway's delivery (formatting, splitting, outbox, retries).
   * `target`: `telegram` (that platform's home channel, `TELEGRAM_HOME_CHANNEL`), `home` (the
   * first connected platform that has a home channel), or `telegram:CHAT_ID[:THREAD_ID]`.
   */
  send(target: string, text: string): Promise<HookSendResult>;
  /**
   * Runs a one-shot agent turn with the gateway's resolved model, credentials, tools (including
   * `send_message`) and plugin hooks; nothing is stored as a session.
   */
  runAgent(prompt: string, options?: { maxIterations?: number }): Promise<HookAgentResult>;
}

/** The function a hook's handler file exports as `handle`, sync or async. */
export type GatewayHookHandler = (
  eventType: GatewayEventType,
  context: Record<string, unknown>,
  hermes: GatewayHookApi,
) => unknown;

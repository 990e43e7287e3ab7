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

/**
 * A HERMES_HOME file that runs only with the operator's consent (BOOT.md), as `trustedFile` read
 * it: `approved` with the content whose sha256 is the approved one, `missing`, or pending (`new`:
 * never approved, `changed`: edited since) with the sha256 of what it read.
 */
export type TrustedFile =
  | { state: 'approved'; content: string }
  | { state: 'missing' }
  | { state: 'new' | 'changed'; sha256: string };

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
  /**
   * Reads `HERMES_HOME/<file>` once and returns its content only when the sha256 of what was read
   * is the one the operator approved (`hermes trust approve`, as the gateway read trust.json at
   * start), so a file changed between the check and the read is never returned. Today: `BOOT.md`.
   */
  trustedFile(file: string): Promise<TrustedFile>;
}

/** The function a hook's handler file exports as `handle`, sync or async. */
export type GatewayHookHandler = (
  eventType: GatewayEventType,
  context: Record<string, unknown>,
  hermes: GatewayHookApi,
) => unknown;

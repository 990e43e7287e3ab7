/**
 * Gateway hooks (`HERMES_HOME/hooks/<dir>/HOOK.yaml` + a handler): the events, their context keys,
 * and what a handler receives. Types only; the gateway implements them.
 */
import type { Logger } from './logger.js';

/** Every gateway event; `command:<name>` fires for each slash command. */
export type GatewayEventType =
  | 'gateway:startup'
  | 'session:start'
  | 'session:end'
  | 'session:reset'
  | 'agent:start'
  | 'agent:step'
  | 'agent:end'
  | `command:${string}`;

/** The fixed event names (the `command:` family aside), in the order of the docs' table. */
export const GATEWAY_EVENTS = [
  'gateway:startup',
  'session:start',
  'session:end',
  'session:reset',
  'agent:start',
  'agent:step',
  'agent:end',
] as const;

/** The context each event carries (snake_case keys, as in the seed's table). */
export interface GatewayEventContexts {
  'gateway:startup': { platforms: string[] };
  'session:start': { platform: string; user_id: string; session_id: string; session_key: string };
  'session:end': { platform: string; user_id: string; session_key: string };
  'session:reset': { platform: string; user_id: string; session_key: string };
  'agent:start': { platform: string; user_id: string; session_id: string; message: string };
  'agent:step': { platform: string; user_id: string; session_id: string; iteration: number; tool_names: string[] };
  'agent:end': { platform: string; user_id: string; session_id: string; message: string; response: string };
  command: { platform: string; user_id: string; command: string; args: string };
}

/** The context of an event type (`command:*` events share one shape). */
export type GatewayEventContext<T extends GatewayEventType> = T extends keyof GatewayEventContexts
  ? GatewayEventContexts[T]
  : GatewayEventContexts['command'];

/** An example context per event, for `hermes hooks test` and the docs. */
export const GATEWAY_EVENT_EXAMPLES: { [K in keyof GatewayEventContexts]: GatewayEventContexts[K] } = {
  'gateway:startup': { platforms: ['telegram', 'discord'] },
  'session:start': {
    platform: 'telegram',
    user_id: '123456789',
    session_id: '20261122T101500-a1b2c3',
    session_key: 'telegram:123456789:dm',
  },
  'session:end': { platform: 'telegram', user_id: '123456789', session_key: 'telegram:123456789:dm' },
  'session:reset': { platform: 'telegram', user_id: '123456789', session_key: 'telegram:123456789:dm' },
  'agent:start': {
    platform: 'telegram',
    user_id: '123456789',
    session_id: '20261122T101500-a1b2c3',
    message: 'What is the weather like?',
  },
  'agent:step': {
    platform: 'telegram',
    user_id: '123456789',
    session_id: '20261122T101500-a1b2c3',
    iteration: 3,
    tool_names: ['terminal', 'read_file'],
  },
  'agent:end': {
    platform: 'telegram',
    user_id: '123456789',
    session_id: '20261122T101500-a1b2c3',
    message: 'What is the weather like?',
    response: 'Sunny, 21 °C.',
  },
  command: { platform: 'telegram', user_id: '123456789', command: 'new', args: '' },
};

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

/**
 * The memory provider contract: what a plugin registers with `ctx.registerMemoryProvider`
 * (plugins/memory/<name>/), chosen by `memory.provider` (default `builtin`, the MEMORY.md/USER.md
 * files of HERMES_HOME/memories). One provider is active at a time. Every method may be async;
 * a method that throws or rejects is logged and the turn goes on without it.
 */
import type { ToolHandler, ToolSchema } from './tools.js';

/** The session a call is about. */
export interface MemorySession {
  sessionId: string;
  /** `cli`, `telegram`, `api`, ... */
  platform: string;
  /**
   * Who the turn is for: the owner identity key (links resolved) and its tier. A provider keeps
   * per-user data under `user.key`; absent only for callers that predate identities.
   */
  user?: { key: string; tier: 'admin' | 'user' };
}

/** Before a turn: what the user just said. */
export interface MemoryTurnStart extends MemorySession {
  userMessage: string;
}

/** After a successful turn: the exchange, for a provider that learns from conversations. */
export interface MemoryTurnEnd extends MemoryTurnStart {
  assistantResponse: string;
}

/** When an agent run ends, whatever the outcome (the `on_session_end` hook's moment). */
export interface MemorySessionEnd extends MemorySession {
  completed: boolean;
  interrupted: boolean;
}

/** A tool the provider offers the model (toolset `memory`). */
export interface MemoryProviderTool {
  name: string;
  schema: ToolSchema;
  handler: ToolHandler;
  /** false: the tool only reads (it stays available where memory writes are excluded) */
  writes?: boolean;
  emoji?: string;
}

export interface MemoryProvider {
  /** what `memory.provider` names (lower-case letters, digits, "-" and "_"; `builtin` is reserved) */
  name: string;
  /**
   * The block appended to the system prompt, asked once when a session starts; the answer is
   * stored with the session and reused for its every turn (so the system prompt stays
   * byte-identical, also across restarts). Empty: nothing is added.
   */
  systemPromptBlock(session: MemorySession): string | Promise<string>;
  /** Context for this turn's request only (appended to the user's message, never stored). */
  prefetch?(turn: MemoryTurnStart): string | null | undefined | Promise<string | null | undefined>;
  /** After a turn answered: the exchange, to remember from. */
  sync?(turn: MemoryTurnEnd): void | Promise<void>;
  /** When an agent run ends (completed, failed or interrupted). */
  onSessionEnd?(session: MemorySessionEnd): void | Promise<void>;
  /** The provider's own tools, offered to the model in the `memory` toolset. */
  tools?: readonly MemoryProviderTool[];
}

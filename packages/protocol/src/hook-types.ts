/** The hook table's types: kinds, payloads, results and the documentation shape (the table is hooks.ts). */
import type { ChatMessage } from './chat.js';
import type { MessageEvent } from './message-event.js';

/** How the bus combines callback results for a hook. */
export type HookKind =
  /** return value ignored */
  | 'observe'
  /** first valid block wins (pre_tool_call) */
  | 'gate'
  /** first string wins */
  | 'transform'
  /** every context string, joined with a blank line in registration order */
  | 'inject'
  /** first recognised skip / rewrite / allow wins */
  | 'dispatch';

export type ApprovalSurface = 'cli' | 'gateway';
export type ApprovalChoice = 'once' | 'session' | 'always' | 'deny' | 'timeout';
export type SubagentStatus = 'completed' | 'failed' | 'interrupted' | 'error';

export interface ApprovalPayload {
  command: string;
  description: string;
  patternKey: string;
  patternKeys: string[];
  sessionKey: string;
  surface: ApprovalSurface;
}

/** Handles the gateway passes to pre_gateway_dispatch; shaped by the gateway package. */
export interface DispatchHandles {
  gateway: unknown;
  sessionStore: unknown;
}

/** Payloads, by hook: the seed's keyword arguments in camelCase. */
export interface HookPayloads {
  pre_tool_call: {
    toolName: string;
    args: Record<string, unknown>;
    taskId: string;
    sessionId: string;
    toolCallId: string;
  };
  post_tool_call: {
    toolName: string;
    args: Record<string, unknown>;
    result: string;
    taskId: string;
    sessionId: string;
    toolCallId: string;
    durationMs: number;
  };
  transform_tool_result: {
    toolName: string;
    arguments: Record<string, unknown>;
    result: string;
    taskId: string | null;
    sessionId: string;
  };
  transform_terminal_output: { command: string; output: string; exitCode: number; cwd: string; taskId: string | null };
  pre_llm_call: {
    sessionId: string;
    userMessage: string;
    conversationHistory: ChatMessage[];
    isFirstTurn: boolean;
    model: string;
    platform: string;
  };
  post_llm_call: {
    sessionId: string;
    userMessage: string;
    assistantResponse: string;
    conversationHistory: ChatMessage[];
    model: string;
    platform: string;
  };
  pre_api_request: {
    method: string;
    url: string;
    headers: Record<string, string>;
    body: Record<string, unknown>;
    sessionId: string;
    attempt: number;
  };
  post_api_request: {
    method: string;
    url: string;
    statusCode: number;
    response: Record<string, unknown>;
    sessionId: string;
    attempt: number;
    durationMs: number;
  };
  on_session_start: { sessionId: string; model: string; platform: string };
  on_session_end: { sessionId: string; completed: boolean; interrupted: boolean; model: string; platform: string };
  on_session_finalize: { sessionId: string | null; platform: string };
  on_session_reset: { sessionId: string; platform: string };
  subagent_stop: {
    parentSessionId: string;
    childRole: string | null;
    childSummary: string | null;
    childStatus: SubagentStatus;
    durationMs: number;
  };
  pre_gateway_dispatch: { event: MessageEvent } & DispatchHandles;
  pre_approval_request: ApprovalPayload;
  post_approval_response: ApprovalPayload & { choice: ApprovalChoice };
}

export type HookName = keyof HookPayloads;

/** A pre_tool_call veto, normalised from either documented shape. */
export interface BlockDecision {
  action: 'block';
  message: string;
}

/** pre_gateway_dispatch outcome. */
export type DispatchDecision =
  | { action: 'skip'; reason: string }
  | { action: 'rewrite'; text: string }
  | { action: 'allow' };

/** What a callback may return, by kind (the bus parses untyped returns into these at the edge). */
export interface HookReturnByKind {
  observe: unknown;
  gate: BlockDecision | { decision: 'block'; reason: string } | null | undefined | void;
  transform: string | null | undefined | void;
  inject: string | { context: string } | null | undefined | void;
  dispatch: DispatchDecision | null | undefined | void;
}

/** What the bus returns to the caller, by kind. */
export interface HookOutcomeByKind {
  observe: undefined;
  gate: BlockDecision | null;
  transform: string | null;
  inject: string | null;
  dispatch: DispatchDecision;
}

export interface HookFieldDoc {
  /** key on the wire (shell-hook JSON, gateway context, docs): the seed's spelling */
  wire: string;
  type: string;
  description: string;
}

export interface HookSpec<K extends HookKind = HookKind> {
  kind: K;
  fires: string;
  returns: string;
  /** one entry per payload key, camelCase key -> docs */
  fields: Record<string, HookFieldDoc>;
  /** a synthetic payload for `hermes hooks test` and the docs */
  example: Record<string, unknown>;
}

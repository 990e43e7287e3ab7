/** The payload of every plugin hook: the seed's keyword arguments in camelCase. */
import type { ChatMessage } from './chat.js';
import type { DispatchHandles } from './dispatch-handles.js';
import type { GatewayEventPayload } from './gateway-events.js';
import type { MessageEvent } from './message-event.js';

export type ApprovalSurface = 'cli' | 'gateway';
export type ApprovalChoice = 'once' | 'session' | 'always' | 'deny' | 'timeout';
export type SubagentStatus = 'completed' | 'failed' | 'interrupted' | 'error';
/**
 * Why a session was finalized: `new` (/new, /reset), the reset policy (`idle`: idle_minutes of
 * silence; `daily`: at_hour passed), `switch` (/resume made another session active) or `exit`
 * (the CLI's chat or one-shot ended).
 */
export type SessionFinalizeReason = 'new' | 'idle' | 'daily' | 'switch' | 'exit';

export interface ApprovalPayload {
  command: string;
  description: string;
  patternKey: string;
  patternKeys: string[];
  sessionKey: string;
  surface: ApprovalSurface;
}

export interface ToolCallPayload {
  toolName: string;
  args: Record<string, unknown>;
  taskId: string;
  sessionId: string;
  toolCallId: string;
}

/** Payloads, by hook. The hook table (hooks.ts) documents each key and is checked against these. */
export interface HookPayloads {
  pre_tool_call: ToolCallPayload;
  post_tool_call: ToolCallPayload & { result: string; durationMs: number };
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
  on_session_finalize: { sessionId: string | null; platform: string; reason: SessionFinalizeReason };
  on_session_reset: { sessionId: string; platform: string };
  subagent_stop: {
    parentSessionId: string;
    childRole: string | null;
    childSummary: string | null;
    childStatus: SubagentStatus;
    durationMs: number;
  };
  pre_gateway_dispatch: { event: MessageEvent } & DispatchHandles;
  gateway_event: GatewayEventPayload;
  pre_approval_request: ApprovalPayload;
  post_approval_response: ApprovalPayload & { choice: ApprovalChoice };
}

export type HookName = keyof HookPayloads;

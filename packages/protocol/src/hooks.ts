/**
 * THE hook table. One entry per plugin hook: kind, and the documentation the CLI, the shell-hook
 * wire format and docs/hooks.md are derived from, each entry checked against its payload type
 * (hook-payloads.ts) by `defineHook`. Nothing else in the project lists hook names.
 */

import { GATEWAY_EVENT_EXAMPLES } from './gateway-events.js';
import type { HookKind, HookOutcomeByKind, HookReturnByKind } from './hook-kinds.js';
import type { ApprovalPayload, HookName, HookPayloads, ToolCallPayload } from './hook-payloads.js';
import { defineHook, field, type HookFields, type HookSpec } from './hook-spec.js';

export type { BlockDecision, DispatchDecision, HookKind, HookOutcomeByKind, HookReturnByKind } from './hook-kinds.js';
export type {
  ApprovalChoice,
  ApprovalPayload,
  ApprovalSurface,
  HookName,
  HookPayloads,
  SessionFinalizeReason,
  SubagentStatus,
  ToolCallPayload,
} from './hook-payloads.js';
export type { HookExample, HookFieldDoc, HookFields, HookSpec } from './hook-spec.js';
export { defineHook } from './hook-spec.js';

const toolFields: HookFields<ToolCallPayload> = {
  toolName: field('tool_name', 'string', 'name of the tool'),
  args: field('args', 'object', 'the arguments the model passed'),
  taskId: field('task_id', 'string', 'session/task identifier; empty string if not set'),
  sessionId: field('session_id', 'string', 'the session the call belongs to'),
  toolCallId: field('tool_call_id', 'string', "the model's id for this call"),
};

const approvalFields: HookFields<ApprovalPayload> = {
  command: field('command', 'string', 'the shell command awaiting approval'),
  description: field('description', 'string', 'why the command is flagged (all matching patterns)'),
  patternKey: field('pattern_key', 'string', 'primary pattern key, e.g. rm_rf, sudo'),
  patternKeys: field('pattern_keys', 'string[]', 'all matching pattern keys'),
  sessionKey: field('session_key', 'string', 'session identifier'),
  surface: field('surface', '"cli" | "gateway"', 'where the approval is asked'),
};

const approvalExample: ApprovalPayload = {
  command: 'rm -rf ~/',
  description: 'recursive delete',
  patternKey: 'rm_rf',
  patternKeys: ['rm_rf'],
  sessionKey: 'cli:local',
  surface: 'cli',
};

/** The table. `satisfies` makes the compiler reject a missing or extra hook. */
export const HOOKS = {
  pre_tool_call: defineHook<HookPayloads['pre_tool_call']>()({
    kind: 'gate',
    fires: 'Before any tool executes (once per call, also for parallel calls)',
    returns: '{action: "block", message} or {decision: "block", reason} to veto; anything else is ignored',
    fields: toolFields,
    example: {
      toolName: 'terminal',
      args: { command: 'ls' },
      taskId: '',
      sessionId: 'sess_test',
      toolCallId: 'call_1',
    },
  }),
  post_tool_call: defineHook<HookPayloads['post_tool_call']>()({
    kind: 'observe',
    fires: 'After any tool returns (or fails: then result is the error JSON); not for blocked calls',
    returns: 'ignored',
    fields: {
      ...toolFields,
      result: field('result', 'string', "the tool's result (a JSON string)"),
      durationMs: field('duration_ms', 'number', 'dispatch time in milliseconds'),
    },
    example: {
      toolName: 'terminal',
      args: { command: 'ls' },
      result: '{"output":"a\\nb","exit_code":0}',
      taskId: '',
      sessionId: 'sess_test',
      toolCallId: 'call_1',
      durationMs: 12,
    },
  }),
  transform_tool_result: defineHook<HookPayloads['transform_tool_result']>()({
    kind: 'transform',
    fires: 'After post_tool_call, before the result is appended to the conversation',
    returns: 'a string to replace the result the model sees; null/undefined to leave it',
    fields: {
      toolName: field('tool_name', 'string', 'tool that produced the result'),
      arguments: field('arguments', 'object', 'arguments the model called the tool with'),
      result: field('result', 'string', "the tool's result string"),
      taskId: field('task_id', 'string | null', 'task id, when set'),
      sessionId: field('session_id', 'string', 'the session'),
    },
    example: {
      toolName: 'read_file',
      arguments: { path: 'a.txt' },
      result: '{"content":"hi"}',
      taskId: null,
      sessionId: 'sess_test',
    },
  }),
  transform_terminal_output: defineHook<HookPayloads['transform_terminal_output']>()({
    kind: 'transform',
    fires: 'Inside the terminal tool, before truncation, ANSI strip and secret redaction',
    returns: 'a string to replace the raw output; null/undefined to leave it',
    fields: {
      command: field('command', 'string', 'the shell command'),
      output: field('output', 'string', 'raw combined stdout/stderr'),
      exitCode: field('exit_code', 'number', 'process exit code'),
      cwd: field('cwd', 'string', 'working directory'),
      taskId: field('task_id', 'string | null', 'task id, when set'),
    },
    example: { command: 'ls', output: 'a\nb\n', exitCode: 0, cwd: '/tmp', taskId: null },
  }),
  pre_llm_call: defineHook<HookPayloads['pre_llm_call']>()({
    kind: 'inject',
    fires: 'Once per turn, before the tool-calling loop',
    returns: "{context: string} or a non-empty string: appended to this turn's user message only",
    fields: {
      sessionId: field('session_id', 'string', 'the session'),
      userMessage: field('user_message', 'string', "the user's original message for this turn"),
      conversationHistory: field('conversation_history', 'ChatMessage[]', 'copy of the message list before this turn'),
      isFirstTurn: field('is_first_turn', 'boolean', 'true on the first turn of a new session'),
      model: field('model', 'string', 'model id'),
      platform: field('platform', 'string', '"cli", "telegram", "discord", ...'),
    },
    example: {
      sessionId: 'sess_test',
      userMessage: 'hello',
      conversationHistory: [],
      isFirstTurn: true,
      model: 'test-model',
      platform: 'cli',
    },
  }),
  post_llm_call: defineHook<HookPayloads['post_llm_call']>()({
    kind: 'observe',
    fires: 'Once per turn, after the tool loop, on successful turns only',
    returns: 'ignored',
    fields: {
      sessionId: field('session_id', 'string', 'the session'),
      userMessage: field('user_message', 'string', "the user's original message"),
      assistantResponse: field('assistant_response', 'string', 'the final answer'),
      conversationHistory: field('conversation_history', 'ChatMessage[]', 'copy of the message list after the turn'),
      model: field('model', 'string', 'model id'),
      platform: field('platform', 'string', 'where the session runs'),
    },
    example: {
      sessionId: 'sess_test',
      userMessage: 'hello',
      assistantResponse: 'hi!',
      conversationHistory: [],
      model: 'test-model',
      platform: 'cli',
    },
  }),
  pre_api_request: defineHook<HookPayloads['pre_api_request']>()({
    kind: 'observe',
    fires: 'Before every HTTP request to the model endpoint (each retry too)',
    returns: 'ignored',
    fields: {
      method: field('method', 'string', 'HTTP method'),
      url: field('url', 'string', 'request URL'),
      headers: field('headers', 'object', 'request headers, authorization redacted'),
      body: field('body', 'object', 'request body'),
      sessionId: field('session_id', 'string', 'the session'),
      attempt: field('attempt', 'number', '1 for the first try, 2 for the first retry, ...'),
    },
    example: {
      method: 'POST',
      url: 'http://127.0.0.1:11434/v1/chat/completions',
      headers: { authorization: 'Bearer [REDACTED]' },
      body: { model: 'test-model', messages: [] },
      sessionId: 'sess_test',
      attempt: 1,
    },
  }),
  post_api_request: defineHook<HookPayloads['post_api_request']>()({
    kind: 'observe',
    fires: 'After every HTTP response (or failure) from the model endpoint',
    returns: 'ignored',
    fields: {
      method: field('method', 'string', 'HTTP method'),
      url: field('url', 'string', 'request URL'),
      statusCode: field('status_code', 'number', 'HTTP status; 0 when no response arrived'),
      response: field('response', 'object', 'response summary: id, finish_reason, usage, or error'),
      sessionId: field('session_id', 'string', 'the session'),
      attempt: field('attempt', 'number', 'attempt number'),
      durationMs: field('duration_ms', 'number', 'request time in milliseconds'),
    },
    example: {
      method: 'POST',
      url: 'http://127.0.0.1:11434/v1/chat/completions',
      statusCode: 200,
      response: { id: 'chatcmpl-1', finish_reason: 'stop' },
      sessionId: 'sess_test',
      attempt: 1,
      durationMs: 40,
    },
  }),
  on_session_start: defineHook<HookPayloads['on_session_start']>()({
    kind: 'observe',
    fires: "On a new session's first turn only",
    returns: 'ignored',
    fields: {
      sessionId: field('session_id', 'string', 'the new session'),
      model: field('model', 'string', 'model id'),
      platform: field('platform', 'string', 'where the session runs'),
    },
    example: { sessionId: 'sess_test', model: 'test-model', platform: 'cli' },
  }),
  on_session_end: defineHook<HookPayloads['on_session_end']>()({
    kind: 'observe',
    fires: 'At the end of every agent run, whatever the outcome',
    returns: 'ignored',
    fields: {
      sessionId: field('session_id', 'string', 'the session'),
      completed: field('completed', 'boolean', 'true if a final answer was produced'),
      interrupted: field('interrupted', 'boolean', 'true if the turn was interrupted'),
      model: field('model', 'string', 'model id'),
      platform: field('platform', 'string', 'where the session runs'),
    },
    example: { sessionId: 'sess_test', completed: true, interrupted: false, model: 'test-model', platform: 'cli' },
  }),
  on_session_finalize: defineHook<HookPayloads['on_session_finalize']>()({
    kind: 'observe',
    fires:
      "When the CLI or gateway tears down a session (/new, /resume of another one, exit, the reset policy on the chat's next message or the gateway's idle sweep)",
    returns: 'ignored',
    fields: {
      sessionId: field('session_id', 'string | null', 'the outgoing session, null if none existed'),
      platform: field('platform', 'string', 'where the session ran'),
      reason: field(
        'reason',
        '"new" | "idle" | "daily" | "switch" | "exit"',
        'why: /new or /reset, the reset policy, /resume of another session, the CLI ending',
      ),
    },
    example: { sessionId: 'sess_test', platform: 'cli', reason: 'exit' },
  }),
  on_session_reset: defineHook<HookPayloads['on_session_reset']>()({
    kind: 'observe',
    fires:
      "After a fresh session id replaced a chat's session (/new, /reset; or the reset policy ended the previous one)",
    returns: 'ignored',
    fields: {
      sessionId: field('session_id', 'string', 'the new session id'),
      platform: field('platform', 'string', 'where the session runs'),
    },
    example: { sessionId: 'sess_new', platform: 'telegram' },
  }),
  subagent_stop: defineHook<HookPayloads['subagent_stop']>()({
    kind: 'observe',
    fires: "Once per delegate_task child, on the parent's side, after all of the call's children ended (in task order)",
    returns: 'ignored',
    fields: {
      parentSessionId: field('parent_session_id', 'string', 'the delegating session'),
      childRole: field('child_role', 'string | null', 'role tag of the child'),
      childSummary: field('child_summary', 'string | null', "the child's final answer"),
      childStatus: field('child_status', '"completed" | "failed" | "interrupted" | "error"', 'how the child ended'),
      durationMs: field('duration_ms', 'number', 'wall-clock time of the child'),
    },
    example: {
      parentSessionId: 'sess_test',
      childRole: null,
      childSummary: 'done',
      childStatus: 'completed',
      durationMs: 1200,
    },
  }),
  pre_gateway_dispatch: defineHook<HookPayloads['pre_gateway_dispatch']>()({
    kind: 'dispatch',
    fires:
      'Once per inbound gateway message or turn of any gateway surface (chats, the API platform, cron, a hook runAgent), after the internal-event guard, before auth and dispatch',
    returns: '{action: "skip", reason} | {action: "rewrite", text} | {action: "allow"} | null',
    fields: {
      event: field('event', 'MessageEvent', 'the normalized inbound message'),
      gateway: field('gateway', 'DispatchGateway', 'the running gateway, narrowed: platforms(), send(target, text)'),
      sessionStore: field('session_store', 'DispatchSessionStore', 'silent transcript ingestion: ingest(event, text?)'),
    },
    example: {
      event: {
        kind: 'text',
        platform: 'telegram',
        messageId: '1',
        text: 'hello',
        source: { platform: 'telegram', chatId: '42', chatType: 'dm', userId: '42' },
        internal: false,
        receivedAt: 0,
        raw: null,
      },
      gateway: null,
      sessionStore: null,
    },
  }),
  gateway_event: defineHook<HookPayloads['gateway_event']>()({
    kind: 'observe',
    fires:
      'In the gateway after each of its events (gateway:startup, session:*, agent:*, cron:*, command:*; docs/gateway-hooks.md), on a later tick: nothing waits for it. The gateway hooks of HERMES_HOME/hooks run here, in their worker thread',
    returns: 'ignored',
    fields: {
      event: field('event', 'string', 'the gateway event: agent:end, command:new, ...'),
      context: field('context', 'object', "the event's context (snake_case keys, per event)"),
    },
    example: { event: 'agent:end', context: { ...GATEWAY_EVENT_EXAMPLES['agent:end'] } },
  }),
  pre_approval_request: defineHook<HookPayloads['pre_approval_request']>()({
    kind: 'observe',
    fires: 'Before a dangerous command approval is asked, on every surface',
    returns: 'ignored (observer only; use pre_tool_call to block)',
    fields: approvalFields,
    example: approvalExample,
  }),
  post_approval_response: defineHook<HookPayloads['post_approval_response']>()({
    kind: 'observe',
    fires: 'After the user answers an approval prompt, or it times out',
    returns: 'ignored',
    fields: {
      ...approvalFields,
      choice: field('choice', '"once" | "session" | "always" | "deny" | "timeout"', 'the decision'),
    },
    example: { ...approvalExample, choice: 'deny' },
  }),
} as const satisfies { [K in HookName]: HookSpec<HookKind, HookPayloads[K]> };

export type HookTable = typeof HOOKS;
export type HookReturn<K extends HookName> = HookReturnByKind[HookTable[K]['kind']];
export type HookOutcome<K extends HookName> = HookOutcomeByKind[HookTable[K]['kind']];

/** A typed callback for hook K: sync or async. */
export type HookCallback<K extends HookName> = (payload: HookPayloads[K]) => HookReturn<K> | Promise<HookReturn<K>>;

/** Every hook name, in table order. */
export const HOOK_NAMES = Object.keys(HOOKS) as HookName[];

/** True when `name` is a hook of the table. */
export function isHookName(name: string): name is HookName {
  return Object.hasOwn(HOOKS, name);
}

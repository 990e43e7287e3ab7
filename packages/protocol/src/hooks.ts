/**
 * THE hook table. One entry per plugin hook: payload type, result type, kind, and the
 * documentation the CLI, the shell-hook wire format and docs/hooks.md are derived from.
 * Nothing else in the project lists hook names.
 */
import type {
  HookFieldDoc,
  HookName,
  HookOutcomeByKind,
  HookPayloads,
  HookReturnByKind,
  HookSpec,
} from './hook-types.js';

export * from './hook-types.js';

const f = (wire: string, type: string, description: string): HookFieldDoc => ({ wire, type, description });

const toolFields = {
  toolName: f('tool_name', 'string', 'name of the tool'),
  args: f('args', 'object', 'the arguments the model passed'),
  taskId: f('task_id', 'string', 'session/task identifier; empty string if not set'),
  sessionId: f('session_id', 'string', 'the session the call belongs to'),
  toolCallId: f('tool_call_id', 'string', "the model's id for this call"),
};

const approvalFields = {
  command: f('command', 'string', 'the shell command awaiting approval'),
  description: f('description', 'string', 'why the command is flagged (all matching patterns)'),
  patternKey: f('pattern_key', 'string', 'primary pattern key, e.g. rm_rf, sudo'),
  patternKeys: f('pattern_keys', 'string[]', 'all matching pattern keys'),
  sessionKey: f('session_key', 'string', 'session identifier'),
  surface: f('surface', '"cli" | "gateway"', 'where the approval is asked'),
};

const approvalExample = {
  command: 'rm -rf ~/',
  description: 'recursive delete',
  patternKey: 'rm_rf',
  patternKeys: ['rm_rf'],
  sessionKey: 'cli:local',
  surface: 'cli',
};

/** The table. `satisfies` makes the compiler reject a missing or extra hook. */
export const HOOKS = {
  pre_tool_call: {
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
  },
  post_tool_call: {
    kind: 'observe',
    fires: 'After any tool returns (or fails: then result is the error JSON); not for blocked calls',
    returns: 'ignored',
    fields: {
      ...toolFields,
      result: f('result', 'string', "the tool's result (a JSON string)"),
      durationMs: f('duration_ms', 'number', 'dispatch time in milliseconds'),
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
  },
  transform_tool_result: {
    kind: 'transform',
    fires: 'After post_tool_call, before the result is appended to the conversation',
    returns: 'a string to replace the result the model sees; null/undefined to leave it',
    fields: {
      toolName: f('tool_name', 'string', 'tool that produced the result'),
      arguments: f('arguments', 'object', 'arguments the model called the tool with'),
      result: f('result', 'string', "the tool's result string"),
      taskId: f('task_id', 'string | null', 'task id, when set'),
      sessionId: f('session_id', 'string', 'the session'),
    },
    example: {
      toolName: 'read_file',
      arguments: { path: 'a.txt' },
      result: '{"content":"hi"}',
      taskId: null,
      sessionId: 'sess_test',
    },
  },
  transform_terminal_output: {
    kind: 'transform',
    fires: 'Inside the terminal tool, before truncation, ANSI strip and secret redaction',
    returns: 'a string to replace the raw output; null/undefined to leave it',
    fields: {
      command: f('command', 'string', 'the shell command'),
      output: f('output', 'string', 'raw combined stdout/stderr'),
      exitCode: f('exit_code', 'number', 'process exit code'),
      cwd: f('cwd', 'string', 'working directory'),
      taskId: f('task_id', 'string | null', 'task id, when set'),
    },
    example: { command: 'ls', output: 'a\nb\n', exitCode: 0, cwd: '/tmp', taskId: null },
  },
  pre_llm_call: {
    kind: 'inject',
    fires: 'Once per turn, before the tool-calling loop',
    returns: "{context: string} or a non-empty string: appended to this turn's user message only",
    fields: {
      sessionId: f('session_id', 'string', 'the session'),
      userMessage: f('user_message', 'string', "the user's original message for this turn"),
      conversationHistory: f('conversation_history', 'ChatMessage[]', 'copy of the message list before this turn'),
      isFirstTurn: f('is_first_turn', 'boolean', 'true on the first turn of a new session'),
      model: f('model', 'string', 'model id'),
      platform: f('platform', 'string', '"cli", "telegram", "discord", ...'),
    },
    example: {
      sessionId: 'sess_test',
      userMessage: 'hello',
      conversationHistory: [],
      isFirstTurn: true,
      model: 'test-model',
      platform: 'cli',
    },
  },
  post_llm_call: {
    kind: 'observe',
    fires: 'Once per turn, after the tool loop, on successful turns only',
    returns: 'ignored',
    fields: {
      sessionId: f('session_id', 'string', 'the session'),
      userMessage: f('user_message', 'string', "the user's original message"),
      assistantResponse: f('assistant_response', 'string', 'the final answer'),
      conversationHistory: f('conversation_history', 'ChatMessage[]', 'copy of the message list after the turn'),
      model: f('model', 'string', 'model id'),
      platform: f('platform', 'string', 'where the session runs'),
    },
    example: {
      sessionId: 'sess_test',
      userMessage: 'hello',
      assistantResponse: 'hi!',
      conversationHistory: [],
      model: 'test-model',
      platform: 'cli',
    },
  },
  pre_api_request: {
    kind: 'observe',
    fires: 'Before every HTTP request to the model endpoint (each retry too)',
    returns: 'ignored',
    fields: {
      method: f('method', 'string', 'HTTP method'),
      url: f('url', 'string', 'request URL'),
      headers: f('headers', 'object', 'request headers, authorization redacted'),
      body: f('body', 'object', 'request body'),
      sessionId: f('session_id', 'string', 'the session'),
      attempt: f('attempt', 'number', '1 for the first try, 2 for the first retry, ...'),
    },
    example: {
      method: 'POST',
      url: 'http://127.0.0.1:11434/v1/chat/completions',
      headers: { authorization: 'Bearer [REDACTED]' },
      body: { model: 'test-model', messages: [] },
      sessionId: 'sess_test',
      attempt: 1,
    },
  },
  post_api_request: {
    kind: 'observe',
    fires: 'After every HTTP response (or failure) from the model endpoint',
    returns: 'ignored',
    fields: {
      method: f('method', 'string', 'HTTP method'),
      url: f('url', 'string', 'request URL'),
      statusCode: f('status_code', 'number', 'HTTP status; 0 when no response arrived'),
      response: f('response', 'object', 'response summary: id, finish_reason, usage, or error'),
      sessionId: f('session_id', 'string', 'the session'),
      attempt: f('attempt', 'number', 'attempt number'),
      durationMs: f('duration_ms', 'number', 'request time in milliseconds'),
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
  },
  on_session_start: {
    kind: 'observe',
    fires: "On a new session's first turn only",
    returns: 'ignored',
    fields: {
      sessionId: f('session_id', 'string', 'the new session'),
      model: f('model', 'string', 'model id'),
      platform: f('platform', 'string', 'where the session runs'),
    },
    example: { sessionId: 'sess_test', model: 'test-model', platform: 'cli' },
  },
  on_session_end: {
    kind: 'observe',
    fires: 'At the end of every agent run, whatever the outcome',
    returns: 'ignored',
    fields: {
      sessionId: f('session_id', 'string', 'the session'),
      completed: f('completed', 'boolean', 'true if a final answer was produced'),
      interrupted: f('interrupted', 'boolean', 'true if the turn was interrupted'),
      model: f('model', 'string', 'model id'),
      platform: f('platform', 'string', 'where the session runs'),
    },
    example: { sessionId: 'sess_test', completed: true, interrupted: false, model: 'test-model', platform: 'cli' },
  },
  on_session_finalize: {
    kind: 'observe',
    fires: 'When the CLI or gateway tears down a session (/new, exit, idle GC)',
    returns: 'ignored',
    fields: {
      sessionId: f('session_id', 'string | null', 'the outgoing session, null if none existed'),
      platform: f('platform', 'string', 'where the session ran'),
    },
    example: { sessionId: 'sess_test', platform: 'cli' },
  },
  on_session_reset: {
    kind: 'observe',
    fires: 'After a fresh session id is allocated for a chat (/new, /reset, idle window)',
    returns: 'ignored',
    fields: {
      sessionId: f('session_id', 'string', 'the new session id'),
      platform: f('platform', 'string', 'where the session runs'),
    },
    example: { sessionId: 'sess_new', platform: 'telegram' },
  },
  subagent_stop: {
    kind: 'observe',
    fires: 'Once per child agent after delegation finishes',
    returns: 'ignored',
    fields: {
      parentSessionId: f('parent_session_id', 'string', 'the delegating session'),
      childRole: f('child_role', 'string | null', 'role tag of the child'),
      childSummary: f('child_summary', 'string | null', "the child's final answer"),
      childStatus: f('child_status', '"completed" | "failed" | "interrupted" | "error"', 'how the child ended'),
      durationMs: f('duration_ms', 'number', 'wall-clock time of the child'),
    },
    example: {
      parentSessionId: 'sess_test',
      childRole: null,
      childSummary: 'done',
      childStatus: 'completed',
      durationMs: 1200,
    },
  },
  pre_gateway_dispatch: {
    kind: 'dispatch',
    fires:
      'Once per inbound gateway message (API platform requests included), after the internal-event guard, before auth and dispatch',
    returns: '{action: "skip", reason} | {action: "rewrite", text} | {action: "allow"} | null',
    fields: {
      event: f('event', 'MessageEvent', 'the normalized inbound message'),
      gateway: f('gateway', 'Gateway', 'the running gateway (send, adapters)'),
      sessionStore: f('session_store', 'SessionStore', 'for silent transcript ingestion'),
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
  },
  pre_approval_request: {
    kind: 'observe',
    fires: 'Before a dangerous command approval is asked, on every surface',
    returns: 'ignored (observer only; use pre_tool_call to block)',
    fields: approvalFields,
    example: approvalExample,
  },
  post_approval_response: {
    kind: 'observe',
    fires: 'After the user answers an approval prompt, or it times out',
    returns: 'ignored',
    fields: {
      ...approvalFields,
      choice: f('choice', '"once" | "session" | "always" | "deny" | "timeout"', 'the decision'),
    },
    example: { ...approvalExample, choice: 'deny' },
  },
} as const satisfies { [K in HookName]: HookSpec };

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

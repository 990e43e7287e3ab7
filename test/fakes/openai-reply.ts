// What a scripted fake-OpenAI answer can be: text, tool calls, or an HTTP error, plus timing knobs.

/** Timing and extra headers any reply may carry. */
export interface ReplyBase {
  /** Wait this long before answering (before the status line is sent). */
  delayMs?: number;
  /** Streams only: wait this long between SSE chunks. */
  chunkDelayMs?: number;
  /** Never answer: the request stays open until the client aborts or the fake closes. */
  hang?: boolean;
  /** Extra response headers (e.g. `retry-after`, `x-ratelimit-remaining-requests`). */
  headers?: Record<string, string>;
}

/** Token counts to report instead of the fake's estimate. */
export interface ReplyUsage {
  usage?: { prompt_tokens: number; completion_tokens: number };
}

/** An assistant message with text (finish_reason `stop` unless overridden). */
export interface TextReply extends ReplyBase, ReplyUsage {
  text: string;
  /** sent as `reasoning_content` (a message field, or delta chunks before the content when streamed), as DeepSeek and vLLM do */
  reasoning?: string;
  finishReason?: 'stop' | 'length' | 'content_filter';
}

export interface FakeToolCall {
  name: string;
  /** A JSON string as the model would send it, or an object that the fake serialises. */
  arguments: string | object;
  /** Defaults to `call_<n>`, n counting from 1 per fake (reset by `reset()`). */
  id?: string;
}

/** An assistant message asking for tool calls (finish_reason `tool_calls`), optionally with text. */
export interface ToolCallsReply extends ReplyBase, ReplyUsage {
  toolCalls: FakeToolCall[];
  text?: string;
  reasoning?: string;
}

/** An HTTP error. `body` is sent verbatim; without it an OpenAI-style `{error:{message,type,param,code}}`. */
export interface ErrorReply extends ReplyBase {
  status: number;
  body?: object;
}

/** No answer at all: the request hangs until the client aborts or the fake closes. */
export interface HangReply extends ReplyBase {
  hang: true;
}

export type Reply = TextReply | ToolCallsReply | ErrorReply | HangReply;

/** The OpenAI error `type`/`code` pair for a status, as the real API reports it. */
export function errorBodyFor(status: number, message?: string): { error: Record<string, string | null> } {
  const [type, code, text] =
    status === 401
      ? ['invalid_request_error', 'invalid_api_key', 'Incorrect API key provided.']
      : status === 404
        ? ['invalid_request_error', null, 'Not found.']
        : status === 429
          ? ['requests', 'rate_limit_exceeded', 'Rate limit reached for fake-model on requests per min (RPM).']
          : status >= 500
            ? ['server_error', null, 'The server had an error while processing your request.']
            : ['invalid_request_error', null, `Request failed with status ${status}.`];
  return { error: { message: message ?? text, type, param: null, code } };
}

/** The two replies of one tool-calling turn: a call to `name` with `args`, then `finalText`. */
export function scriptToolTurn(name: string, args: string | object, finalText: string): [ToolCallsReply, TextReply] {
  return [{ toolCalls: [{ name, arguments: args }] }, { text: finalText }];
}

/**
 * The context-engine contract: what a plugin registers with `ctx.registerContextEngine`
 * (plugins/context_engine/<name>/), chosen by `context.engine`, and asked before a model request
 * whose history would pass `context.threshold` × `model.context_length`. The built-in engine is
 * `compressor`. An engine only decides where to cut and what the summary says; the host builds the
 * messages, keeps tool calls with their results, stores the summary and checks the size.
 */
import type { ChatMessage } from './chat.js';

export interface ContextEngineInput {
  sessionId: string;
  model: string;
  /** what would be sent after the system prompt, oldest first (an earlier summary is one of them) */
  messages: readonly ChatMessage[];
  /** model.context_length */
  contextLength: number;
  /** context.threshold × model.context_length: what the request should get under */
  budget: number;
  /** context.protect_last_n: the last messages kept as they are */
  protectLastN: number;
  /** the tokens sent with every request besides the messages (system prompt, tool schemas) */
  fixedTokens: number;
  /** true for `/compress` and for the retry after a context-length error */
  force: boolean;
  /** the host's token estimate of some messages (calibrated from what the model reported) */
  estimateTokens(messages: readonly ChatMessage[]): number;
  /** asks the model (auxiliary.compression.model when set) for a summary of these messages */
  summarize(messages: readonly ChatMessage[]): Promise<string>;
  signal: AbortSignal;
}

/** The first `keepHead` input messages, one summary message, then the input from `keepFrom` on. */
export interface ContextCompression {
  keepHead: number;
  summary: string;
  keepFrom: number;
}

export interface ContextEngine {
  /** what `context.engine` names (`compressor` is the built-in one) */
  name: string;
  /** a compression of the input, or null to send it as it is */
  compress(input: ContextEngineInput): Promise<ContextCompression | null>;
}

/** Builds one turn's context window and history view (the turn service's part of context engines). */
import type { ChatMessage, Logger, ToolDefinition } from '@hermes/protocol';
import type { ModelClient } from '../model-client.js';
import type { ContextRuntime } from './context-settings.js';
import { ContextWindow } from './context-window.js';
import { historyView } from './history-view.js';
import { textTokens } from './token-estimate.js';

const schemaTokens = new WeakMap<ToolDefinition, number>();

/** The uncalibrated tokens sent with every request besides the messages: the system prompt and the tools. */
export function fixedTokens(systemPrompt: string, tools: readonly ToolDefinition[]): number {
  let sum = textTokens(systemPrompt) + 4;
  for (const tool of tools) {
    let tokens = schemaTokens.get(tool);
    if (tokens === undefined) {
      tokens = textTokens(JSON.stringify({ type: 'function', function: tool.schema }));
      schemaTokens.set(tool, tokens);
    }
    sum += tokens;
  }
  return sum;
}

export interface TurnContextOptions {
  runtime: ContextRuntime;
  client: Pick<ModelClient, 'complete'>;
  model: string;
  sessionId: string;
  systemPrompt: string;
  tools: readonly ToolDefinition[];
  /** the session's full history */
  full: readonly ChatMessage[];
  persist: boolean;
  logger: Logger;
}

export interface TurnContext {
  /** what the turn starts from: the full history with the stored summary applied */
  history: readonly ChatMessage[];
  window: ContextWindow;
}

export async function turnContext(o: TurnContextOptions): Promise<TurnContext> {
  const stored = o.persist ? ((await o.runtime.summaries?.latest(o.sessionId)) ?? null) : null;
  const view = historyView(o.full, stored);
  const window = new ContextWindow({
    runtime: o.runtime,
    client: o.client,
    model: o.model,
    sessionId: o.sessionId,
    fixedTokens: fixedTokens(o.systemPrompt, o.tools),
    full: o.full,
    summary: view.summary,
    persist: o.persist,
    logger: o.logger,
  });
  return { history: view.messages, window };
}

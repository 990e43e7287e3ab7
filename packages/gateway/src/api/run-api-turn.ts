/**
 * One agent turn for the API platform's endpoints (chat completions and responses run it the
 * same way): the configured model, the platform's system prompt, the tools of the configured
 * toolsets, hooks, and an approval gate that denies dangerous commands (nobody to ask).
 */
import { buildSystemPrompt, createApprovalGate, runTurn, type TurnResult } from '@hermes/agent';
import type { ChatMessage } from '@hermes/protocol';
import type { ApiPlatformDeps } from '../api-platform.js';

export interface ApiTurn {
  sessionId: string;
  /** the earlier messages the model sees before `userMessage` */
  history: ChatMessage[];
  userMessage: string;
  signal: AbortSignal;
  /** streamed answer text, as the model sends it (not yet redacted) */
  onDelta?: (text: string) => void;
  /** the request's own instructions (Responses API `instructions`), after Hermes' system prompt */
  instructions?: string | null;
}

/** Runs one turn; nothing is stored here (the caller appends `result.messages` to its session). */
export async function runApiTurn(deps: ApiPlatformDeps, turn: ApiTurn): Promise<TurnResult> {
  const base = buildSystemPrompt({ custom: deps.systemPrompt, platform: 'api' });
  return runTurn({
    client: deps.client,
    model: deps.model,
    systemPrompt: turn.instructions ? `${base}\n\n${turn.instructions}` : base,
    history: turn.history,
    userMessage: turn.userMessage,
    sessionId: turn.sessionId,
    platform: 'api',
    tools: await deps.tools.available({ env: deps.env, toolsets: deps.toolsets }),
    hooks: deps.hooks,
    logger: deps.logger,
    requestApproval: createApprovalGate({ hooks: deps.hooks, surface: 'gateway', sessionKey: turn.sessionId }),
    cwd: deps.cwd,
    maxIterations: deps.maxIterations,
    toolTimeoutMs: deps.toolTimeoutMs,
    signal: turn.signal,
    ...(turn.onDelta ? { onDelta: turn.onDelta } : {}),
  });
}

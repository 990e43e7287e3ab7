/** One CLI turn on a stored session: load history, run the agent, persist what the turn produced. */
import { buildSystemPrompt, runTurn, type TurnResult } from '@hermes/agent';
import type { ApprovalChoice, ApprovalRequest } from '@hermes/protocol';
import type { AgentRuntime } from './runtime.js';

export interface CliTurnOptions {
  sessionId: string;
  text: string;
  requestApproval: (request: ApprovalRequest) => Promise<ApprovalChoice>;
  signal?: AbortSignal;
  onDelta?: (text: string) => void;
}

/** Runs one turn and appends its messages to the session's transcript. */
export async function runCliTurn(rt: AgentRuntime, options: CliTurnOptions): Promise<TurnResult> {
  const history = rt.store.transcripts.list(options.sessionId);
  const result = await runTurn({
    client: rt.client,
    model: rt.model,
    systemPrompt: buildSystemPrompt({ custom: rt.config.agent.system_prompt, platform: 'cli' }),
    history,
    userMessage: options.text,
    sessionId: options.sessionId,
    platform: 'cli',
    tools: await rt.tools.available({ env: rt.env, toolsets: rt.config.agent.toolsets }),
    hooks: rt.hooks,
    logger: rt.logger,
    requestApproval: options.requestApproval,
    cwd: rt.config.terminal.cwd ?? process.cwd(),
    maxIterations: rt.config.agent.max_iterations,
    toolTimeoutMs: rt.config.agent.tool_timeout_s * 1000,
    ...(rt.config.model.max_tokens !== undefined ? { maxTokens: rt.config.model.max_tokens } : {}),
    ...(rt.config.model.temperature !== undefined ? { temperature: rt.config.model.temperature } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onDelta ? { onDelta: options.onDelta } : {}),
  });
  rt.store.transcripts.append(options.sessionId, result.messages);
  return result;
}

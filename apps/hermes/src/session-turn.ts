/** One CLI turn on a stored session, through the turn service: history read, turn run, messages stored. */
import { compressText, createTurnService, type TurnResult, type TurnService } from '@hermes/agent';
import type { ApprovalChoice, ApprovalRequest } from '@hermes/protocol';
import type { AgentRuntime } from './runtime.js';
import { runtimeTurnConfig } from './turn-setup.js';

export interface CliTurnOptions {
  sessionId: string;
  text: string;
  requestApproval: (request: ApprovalRequest) => Promise<ApprovalChoice>;
  signal?: AbortSignal;
  onDelta?: (text: string) => void;
}

/** The CLI's turn service (`hermes chat`, `hermes -z`): the runtime's model, tools, hooks and store. */
const services = new WeakMap<AgentRuntime, TurnService>();

/** One per runtime, so what it learns across turns (the token calibration, image refusals) lasts. */
export function cliTurnService(rt: AgentRuntime): TurnService {
  const known = services.get(rt);
  if (known) return known;
  const service = createTurnService(runtimeTurnConfig(rt), rt);
  services.set(rt, service);
  return service;
}

/** Runs one turn and appends its messages to the session's transcript. */
export async function runCliTurn(rt: AgentRuntime, options: CliTurnOptions): Promise<TurnResult> {
  // the MCP servers' first connection attempts (each bounded by its connect_timeout_s), so their tools are offered
  await rt.mcp.ready();
  return cliTurnService(rt).run({
    sessionId: options.sessionId,
    platform: 'cli',
    userMessage: options.text,
    persist: 'after',
    approval: options.requestApproval,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onDelta ? { onDelta: options.onDelta } : {}),
  });
}

/** `/compress` in `hermes chat`: the context engine forced on the session, its report as text. */
export async function compressCliSession(rt: AgentRuntime, sessionId: string): Promise<string> {
  try {
    return compressText(await cliTurnService(rt).compress(sessionId, 'cli'));
  } catch (err) {
    return `Could not compress: ${err instanceof Error ? err.message : String(err)}`;
  }
}

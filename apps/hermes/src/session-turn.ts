/**
 * One CLI turn on a stored session, through the turn service: history read, turn run, messages
 * stored. `hermes chat` and `hermes -z` submit the same `TurnJob` every gateway surface does, with
 * the CLI's plans (`SURFACE_PLANS['cli-chat' | 'cli-oneshot']`: no gateway, so no dispatch hook,
 * lanes, gateway events or metrics; the session is the command's own).
 */
import { compressText, createTurnService, type TurnResult, type TurnService } from '@hermes/agent';
import {
  type ApprovalChoice,
  type ApprovalRequest,
  CLI_IDENTITY,
  type ClarifyPrompt,
  planFor,
  SESSION_KEYS,
  type TurnJob,
  type TurnUser,
} from '@hermes/protocol';
import type { AgentRuntime } from './runtime.js';
import { runtimeTurnConfig } from './turn-setup.js';

/** Where a CLI turn's answer goes: the terminal of `hermes chat` (streamed), or stdout of `hermes -z`. */
export interface CliSink {
  kind: 'terminal' | 'stdout';
  /** the session the command opened (its session stage) */
  sessionId: string;
  /** who answers a dangerous command: the terminal's prompt, or the approval gate alone (-z) */
  requestApproval: (request: ApprovalRequest) => Promise<ApprovalChoice>;
  /** who answers the clarify tool's questions: the terminal's prompt (absent: -z, where it is not offered) */
  clarify?: ClarifyPrompt;
  signal?: AbortSignal;
  onDelta?: (text: string) => void;
}

export type CliSurface = 'cli-chat' | 'cli-oneshot';

/** The session key a CLI command's sessions are stored under. */
export const cliSessionKey = (surface: CliSurface): string =>
  surface === 'cli-chat' ? SESSION_KEYS.cliChat : SESSION_KEYS.cliOneShot;

/** A CLI turn as the job every surface submits. */
export function cliTurnJob(surface: CliSurface, text: string, sink: CliSink): TurnJob<CliSink> {
  return {
    surface,
    who: { platform: 'cli', userId: 'local', chatId: 'terminal' },
    sessionKey: cliSessionKey(surface),
    input: { text },
    sink,
    plan: planFor(surface),
  };
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

/** The local user of `hermes chat` and `hermes -z`: `cli:local` (or the owner it is linked to), an admin. */
export async function cliUser(rt: AgentRuntime): Promise<TurnUser> {
  return { key: await rt.store.identityLinks.ownerOf(CLI_IDENTITY), tier: 'admin' };
}

/** Runs one turn and appends its messages to the session's transcript. */
export async function runCliTurn(rt: AgentRuntime, job: TurnJob<CliSink>): Promise<TurnResult> {
  // the MCP servers' first connection attempts (each bounded by its connect_timeout_s), so their tools are offered
  await rt.mcp.ready();
  const { sink } = job;
  return cliTurnService(rt).run({
    sessionId: sink.sessionId,
    user: await cliUser(rt),
    platform: job.who.platform,
    userMessage: job.input.text,
    persist: 'after',
    approval: sink.requestApproval,
    ...(sink.clarify ? { clarify: sink.clarify } : {}),
    ...(sink.signal ? { signal: sink.signal } : {}),
    ...(sink.onDelta ? { onDelta: sink.onDelta } : {}),
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

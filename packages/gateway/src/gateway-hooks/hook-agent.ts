/**
 * A gateway hook's `runAgent` as a surface: a `DirectTurnJob` (platform `gateway`, user
 * `hook:<name>`, a lane of its own) through the hook's plan (dispatch hook, commands, a run slot,
 * events, metrics); nothing is stored; cut off when the gateway stops. The answer is the return value.
 */
import { type HookAgentResult, type Logger, planFor, SESSION_KEYS } from '@hermes/protocol';
import { awaitedSink } from '../intake/direct-intake.js';
import type { DirectOutcome, DirectTurnJob } from '../pipeline/input.js';
import { failureMessage } from '../turn/failure-reply.js';

export interface HookAgentOptions {
  name: string;
  maxIterations?: number;
  /** aborted when the gateway stops */
  signal: AbortSignal;
  logger: Logger;
  now: number;
}

/** The job of one `runAgent` call, and its outcome once it ends. */
function hookAgentJob(
  prompt: string,
  options: HookAgentOptions,
): { job: Omit<DirectTurnJob, 'acceptedAt'>; outcome: Promise<DirectOutcome> } {
  const { name } = options;
  const { sink, outcome } = awaitedSink('return', {
    signal: options.signal,
    approval: { surface: 'gateway', key: SESSION_KEYS.hookApproval(name) },
    logger: options.logger,
    ...(options.maxIterations !== undefined ? { maxIterations: options.maxIterations } : {}),
  });
  const sessionKey = SESSION_KEYS.hookRun(name, options.now.toString(36));
  return {
    job: {
      surface: 'hook',
      who: { platform: 'gateway', userId: SESSION_KEYS.hookApproval(name), chatId: sessionKey },
      sessionKey,
      input: { text: prompt },
      sink,
      plan: planFor('hook'),
    },
    outcome,
  };
}

/** What `runAgent` resolves to. */
function hookAgentResult(outcome: DirectOutcome, logger: Logger): HookAgentResult {
  switch (outcome.kind) {
    case 'skipped':
      return { status: 'failed', text: null, error: 'a pre_gateway_dispatch hook skipped it' };
    case 'unavailable':
      return { status: 'interrupted', text: null, error: 'the gateway is stopping' };
    case 'command':
      return { status: 'completed', text: outcome.text };
    case 'limited':
      return { status: 'failed', text: null, error: outcome.text };
    case 'error':
      return { status: 'failed', text: null, error: failureMessage(outcome.error, 'failed', logger) };
    case 'ran': {
      const { result } = outcome;
      return {
        status: result.status,
        text: outcome.text,
        ...(result.error && outcome.failure ? { error: outcome.failure } : {}),
      };
    }
  }
}

/** Runs one `runAgent` call through `submit` (the gateway's `submitTurn`) and resolves with its result. */
export async function runHookAgent(
  submit: (job: Omit<DirectTurnJob, 'acceptedAt'>) => void,
  prompt: string,
  options: HookAgentOptions,
): Promise<HookAgentResult> {
  const run = hookAgentJob(prompt, options);
  submit(run.job);
  return hookAgentResult(await run.outcome, options.logger);
}

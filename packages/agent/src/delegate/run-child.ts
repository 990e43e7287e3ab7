/**
 * One `delegate_task` child: its own session (stored and linked to the parent when the service has
 * a store), a fresh history, the restricted tools, its iteration and time budgets, and the parent's
 * signal and approval gate. Never throws: every ending is a ChildOutcome.
 */
import type { SubagentStatus, ToolContext, ToolDefinition } from '@hermes/protocol';
import type { ServedTurn, TurnRequest } from '../turn-service.js';
import { type ChildTask, childUserMessage } from './delegate-args.js';
import type { ChildSessionsPort, DelegationLimits } from './delegation-settings.js';

/** What runs a child's turn (a TurnService). */
export interface ChildTurns {
  readonly model: string;
  run(request: TurnRequest): Promise<ServedTurn>;
}

/** Added after the system prompt of every child. */
export const CHILD_INSTRUCTIONS =
  'You are a subagent: another agent delegated one task to you. Work on it alone with the tools you have; ' +
  'you cannot ask the user anything. When you are done, answer with a concise summary of what you did ' +
  'and what you found: that answer is all the delegating agent will see.';

export interface ChildOutcome {
  /** 1-based position in the call */
  task: number;
  goal: string;
  status: SubagentStatus;
  /** the child's final answer (completed children only) */
  summary: string | null;
  /** why the child did not complete */
  error: string | null;
  /** the child's session (null when not stored or never started) */
  sessionId: string | null;
  durationMs: number;
  iterations: number;
}

export interface ChildRun {
  turns: ChildTurns;
  limits: DelegationLimits;
  sessions: ChildSessionsPort | undefined;
  /** the parent's tool context: its session, platform, signal, logger and approval gate */
  parent: ToolContext;
  tools: ToolDefinition[];
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Runs one child to its end. A child whose parent was interrupted before it started never runs. */
export async function runChild(run: ChildRun, task: ChildTask, index: number): Promise<ChildOutcome> {
  const { parent, limits } = run;
  const base = { task: index + 1, goal: task.goal, summary: null, iterations: 0 };
  if (parent.signal.aborted) {
    return { ...base, status: 'interrupted', error: 'the parent turn was interrupted', sessionId: null, durationMs: 0 };
  }
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let sessionId: string | null = null;
  const controller = new AbortController();
  const onParentAbort = () => controller.abort(parent.signal.reason);
  parent.signal.addEventListener('abort', onParentAbort, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error('child time budget'));
  }, limits.childTimeoutMs);
  let outcome: ChildOutcome;
  try {
    sessionId =
      (await run.sessions?.start({
        parentId: parent.sessionId,
        platform: parent.platform,
        taskIndex: index,
        goal: task.goal,
        model: run.turns.model,
        ...(parent.user ? { userKey: parent.user.key } : {}),
      })) ?? null;
    const result = await run.turns.run({
      sessionId: sessionId ?? `${parent.sessionId}:child-${index + 1}`,
      platform: parent.platform,
      ...(parent.user ? { user: parent.user } : {}),
      userMessage: childUserMessage(task),
      history: [],
      persist: sessionId === null ? 'none' : 'after',
      approval: (request) => parent.requestApproval(request),
      signal: controller.signal,
      logger: parent.logger,
      maxIterations: limits.childMaxIterations,
      instructions: CHILD_INSTRUCTIONS,
      tools: run.tools,
      modelOf: parent.sessionId, // the parent chat's model (`/model`)
      ...(parent.user ? { user: parent.user } : {}),
      memory: false, // no memory block, prefetch or sync: a child reads none and writes none
    });
    const done = { ...base, sessionId, durationMs: elapsed(), iterations: result.iterations };
    if (result.status === 'completed') {
      outcome = { ...done, status: 'completed', summary: result.finalText, error: null };
    } else if (result.status === 'interrupted' && !timedOut) {
      outcome = { ...done, status: 'interrupted', error: 'the parent turn was interrupted' };
    } else if (result.status === 'interrupted') {
      const seconds = limits.childTimeoutMs / 1000;
      outcome = {
        ...done,
        status: 'failed',
        error: `stopped at its time budget of ${seconds} s (agent.child_timeout_s)`,
      };
    } else if (result.status === 'max_iterations') {
      outcome = {
        ...done,
        status: 'failed',
        error: `used its ${limits.childMaxIterations} model steps without a final answer (agent.child_max_iterations)`,
      };
    } else {
      outcome = { ...done, status: 'failed', error: result.error?.message ?? 'the child turn failed' };
    }
  } catch (err) {
    // not the child's turn failing (runTurn never throws) but starting or storing it
    outcome = { ...base, status: 'error', error: message(err), sessionId, durationMs: elapsed() };
  } finally {
    clearTimeout(timer);
    parent.signal.removeEventListener('abort', onParentAbort);
  }
  if (sessionId !== null) {
    try {
      await run.sessions?.finish(sessionId, outcome.status, outcome.durationMs);
    } catch (err) {
      parent.logger.warn({ err, childSessionId: sessionId }, `could not record the end of child session ${sessionId}`);
    }
  }
  return outcome;
}

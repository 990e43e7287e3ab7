/**
 * The `delegate_task` tool (toolset `delegation`): one task or a batch, each run by a child agent
 * with its own history and restricted tools, at most `agent.max_parallel_children` at once. After
 * every child has ended, `subagent_stop` fires once per child, in task order, on the parent's side;
 * the result is JSON with one entry per task, in task order.
 */
import type { ToolContext, ToolDefinition } from '@hermes/protocol';
import { parseArgs } from '../tools/tool-args.js';
import { childTools } from './child-tools.js';
import { MAX_TASKS_PER_CALL, readTasks } from './delegate-args.js';
import { type DelegationSettings, delegationLimits } from './delegation-settings.js';
import { runBounded } from './run-bounded.js';
import { type ChildOutcome, type ChildTurns, runChild } from './run-child.js';

export const DELEGATE_TASK_TOOL = 'delegate_task';
export const DELEGATION_TOOLSET = 'delegation';

/** A turn service that can run children and tell which tools its turns may use. */
export interface DelegatingTurns extends ChildTurns {
  /** the tools a turn of this service may use (the registry's available ones; for `user`, their tier's) */
  availableTools(user?: ToolContext['user']): Promise<ToolDefinition[]>;
  /** the process's secret redactor: children's summaries pass it before the parent sees them */
  redact(text: string): string;
  /** the memory provider's writing tools (whatever their names): never a child's */
  memoryWriteTools?(): string[];
}

const taskSchema = {
  type: 'object',
  properties: {
    goal: { type: 'string', description: 'What the child agent must do, self-contained.' },
    context: { type: 'string', description: 'Facts the child needs (it does not see this conversation).' },
    toolsets: {
      type: 'array',
      items: { type: 'string' },
      description: 'Toolsets or tool names the child may use (within yours); default: all of yours it may have.',
    },
  },
  required: ['goal'],
} as const;

function entry(outcome: ChildOutcome): Record<string, unknown> {
  return {
    task: outcome.task,
    goal: outcome.goal,
    status: outcome.status,
    summary: outcome.summary,
    ...(outcome.error !== null ? { error: outcome.error } : {}),
    session_id: outcome.sessionId,
    duration_ms: outcome.durationMs,
    iterations: outcome.iterations,
  };
}

/** Fires subagent_stop for each child in task order, one at a time; a failing hook never loses a result. */
async function fireStops(ctx: ToolContext, outcomes: readonly ChildOutcome[]): Promise<void> {
  for (const outcome of outcomes) {
    try {
      await ctx.hooks.invoke('subagent_stop', {
        parentSessionId: ctx.sessionId,
        childRole: null,
        childSummary: outcome.summary,
        childStatus: outcome.status,
        durationMs: outcome.durationMs,
      });
    } catch (err) {
      ctx.logger.warn({ err, task: outcome.task }, 'a subagent_stop hook failed');
    }
  }
}

/** The tool, bound to the turn service whose turns offer it. */
export function createDelegateTaskTool(turns: DelegatingTurns, settings: DelegationSettings): ToolDefinition {
  const limits = delegationLimits(settings);
  return {
    name: DELEGATE_TASK_TOOL,
    toolset: DELEGATION_TOOLSET,
    owner: 'builtin',
    emoji: '🧑‍🤝‍🧑',
    description: 'Hands tasks to child agents that run in parallel and report back',
    schema: {
      name: DELEGATE_TASK_TOOL,
      description:
        'Delegate work to child agents. Give {goal, context?, toolsets?} for one task or {tasks: [...]} for up to ' +
        `${MAX_TASKS_PER_CALL} independent tasks run in parallel (${limits.maxParallelChildren} at a time). ` +
        'Each child starts with no history (put everything it needs in goal and context), cannot message the user, ' +
        'delegate or write memory, and answers with a summary. Returns JSON: one entry per task, in order, ' +
        'with status (completed | failed | interrupted | error) and the summary or error.',
      parameters: {
        type: 'object',
        properties: {
          ...taskSchema.properties,
          tasks: { type: 'array', items: taskSchema, description: 'A batch of independent tasks, run in parallel.' },
        },
      },
    },
    handler: async (args, ctx) => {
      const parsed = parseArgs(() => readTasks(args));
      if (!parsed.ok) return { error: parsed.error, code: parsed.code };
      const tasks = parsed.value;
      const memoryWrites = new Set(turns.memoryWriteTools?.() ?? []);
      const parentTools = (await turns.availableTools(ctx.user)).filter((tool) => !memoryWrites.has(tool.name));
      const outcomes = await runBounded(tasks, limits.maxParallelChildren, (task, index) =>
        runChild(
          { turns, limits, sessions: settings.sessions, parent: ctx, tools: childTools(parentTools, task.toolsets) },
          task,
          index,
        ),
      );
      await fireStops(ctx, outcomes);
      return turns.redact(JSON.stringify({ results: outcomes.map(entry) }));
    },
  };
}

/**
 * `available` plus `delegate_task` when the toolsets enable it (`*`, `delegation` or its name) and
 * no plugin registered a tool of that name (the plugin's is kept).
 */
export function withDelegateTool(
  available: ToolDefinition[],
  tool: ToolDefinition | null,
  toolsets: readonly string[],
): ToolDefinition[] {
  if (tool === null || available.some((t) => t.name === tool.name)) return available;
  const enabled = toolsets.includes('*') || toolsets.includes(tool.toolset) || toolsets.includes(tool.name);
  return enabled ? [...available, tool] : available;
}

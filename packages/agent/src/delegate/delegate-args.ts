/**
 * `delegate_task`'s arguments: one task `{goal, context?, toolsets?}` or a batch `{tasks: [...]}`.
 * A wrong argument is a ToolArgumentError naming it (the model sees it as the tool's error).
 */
import { ToolArgumentError } from '../tools/tool-args.js';

/** At most this many tasks in one call (a model asking for more is told so). */
export const MAX_TASKS_PER_CALL = 10;

export interface ChildTask {
  goal: string;
  context: string | null;
  /** toolsets or tool names the child may use, within the parent's; null: all the parent's allowed ones */
  toolsets: string[] | null;
}

function kind(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : typeof value;
}

function readTask(value: unknown, where: string): ChildTask {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ToolArgumentError(`${where} must be an object {goal, context?, toolsets?}, got ${kind(value)}`);
  }
  const task = value as Record<string, unknown>;
  const prefix = where === 'arguments' ? '' : `${where}.`;
  if (typeof task.goal !== 'string' || task.goal.trim() === '') {
    throw new ToolArgumentError(`${prefix}goal must be a non-empty string, got ${kind(task.goal)}`);
  }
  if (task.context !== undefined && task.context !== null && typeof task.context !== 'string') {
    throw new ToolArgumentError(`${prefix}context must be a string, got ${kind(task.context)}`);
  }
  let toolsets: string[] | null = null;
  if (task.toolsets !== undefined && task.toolsets !== null) {
    if (!Array.isArray(task.toolsets) || task.toolsets.some((t) => typeof t !== 'string')) {
      throw new ToolArgumentError(`${prefix}toolsets must be an array of toolset or tool names`);
    }
    toolsets = task.toolsets as string[];
  }
  const context = typeof task.context === 'string' && task.context.trim() !== '' ? task.context : null;
  return { goal: task.goal, context, toolsets };
}

/** The tasks of one call, in order; throws ToolArgumentError on a bad shape. */
export function readTasks(args: Record<string, unknown>): ChildTask[] {
  if (args.tasks === undefined) {
    if (args.goal === undefined) throw new ToolArgumentError('give either "goal" (one task) or "tasks" (a batch)');
    return [readTask(args, 'arguments')];
  }
  if (args.goal !== undefined) throw new ToolArgumentError('give either "goal" or "tasks", not both');
  if (!Array.isArray(args.tasks) || args.tasks.length === 0) {
    throw new ToolArgumentError(
      `tasks must be a non-empty array of {goal, context?, toolsets?}, got ${kind(args.tasks)}`,
    );
  }
  if (args.tasks.length > MAX_TASKS_PER_CALL) {
    throw new ToolArgumentError(
      `tasks has ${args.tasks.length} entries; at most ${MAX_TASKS_PER_CALL} per call (split the work over calls)`,
    );
  }
  return args.tasks.map((task, i) => readTask(task, `tasks[${i}]`));
}

/** The child's user message: the goal, then the context the parent passed. */
export function childUserMessage(task: ChildTask): string {
  return task.context === null ? task.goal : `${task.goal}\n\nContext from the delegating agent:\n${task.context}`;
}

// delegate_task: child agents with their own history, restricted tools and budgets.
export { CHILD_EXCLUDED_TOOLS, childTools } from './child-tools.js';
export { type ChildTask, MAX_TASKS_PER_CALL, readTasks } from './delegate-args.js';
export {
  createDelegateTaskTool,
  DELEGATE_TASK_TOOL,
  DELEGATION_TOOLSET,
  type DelegatingTurns,
  withDelegateTool,
} from './delegate-task-tool.js';
export {
  CHILD_MAX_ITERATIONS_DEFAULT,
  CHILD_TIMEOUT_DEFAULT_MS,
  type ChildSessionsPort,
  type DelegationSettings,
  MAX_PARALLEL_CHILDREN_DEFAULT,
} from './delegation-settings.js';
export { CHILD_INSTRUCTIONS, type ChildOutcome } from './run-child.js';

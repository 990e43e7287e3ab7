/** What `delegate_task` needs besides the turn service: its limits and where children are stored. */
import type { MaybePromise, SubagentStatus } from '@hermes/protocol';

export const MAX_PARALLEL_CHILDREN_DEFAULT = 3;
export const CHILD_MAX_ITERATIONS_DEFAULT = 20;
export const CHILD_TIMEOUT_DEFAULT_MS = 240_000;

/** Where children's sessions are created and linked to their parent (the store's `childSessions`, sync on SQLite, async on PostgreSQL). */
export interface ChildSessionsPort {
  /** Creates the child's session linked to the parent; returns its id. */
  start(child: {
    parentId: string;
    platform: string;
    taskIndex: number;
    goal: string;
    model?: string;
    userKey?: string;
  }): MaybePromise<string>;
  finish(childId: string, status: SubagentStatus, durationMs: number): MaybePromise<void>;
}

export interface DelegationSettings {
  /** agent.max_parallel_children: children running at once; more tasks wait (default 3) */
  maxParallelChildren?: number;
  /** agent.child_max_iterations: model steps per child (default 20) */
  childMaxIterations?: number;
  /** agent.child_timeout_s in ms: each child's wall-clock budget (default 240 s) */
  childTimeoutMs?: number;
  /** absent: children's transcripts are not stored */
  sessions?: ChildSessionsPort;
}

/** The settings with every default filled in. */
export interface DelegationLimits {
  maxParallelChildren: number;
  childMaxIterations: number;
  childTimeoutMs: number;
}

export function delegationLimits(settings: DelegationSettings): DelegationLimits {
  return {
    maxParallelChildren: settings.maxParallelChildren ?? MAX_PARALLEL_CHILDREN_DEFAULT,
    childMaxIterations: settings.childMaxIterations ?? CHILD_MAX_ITERATIONS_DEFAULT,
    childTimeoutMs: settings.childTimeoutMs ?? CHILD_TIMEOUT_DEFAULT_MS,
  };
}

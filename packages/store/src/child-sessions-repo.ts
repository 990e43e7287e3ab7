import type { NewSession, SessionsRepo } from './sessions-repo.js';
import type { SqliteDatabase } from './sqlite.js';

/** How a `delegate_task` child ended (the `subagent_stop` hook's `childStatus`). */
export type ChildStatus = 'completed' | 'failed' | 'interrupted' | 'error';

/** A child to start: its session is created and linked to `parentId` in one transaction. */
export interface NewChildSession {
  parentId: string;
  platform: string;
  /** the task's position in its `delegate_task` call, from 0 */
  taskIndex: number;
  goal: string;
  role?: string | null;
  model?: string;
  /** the parent turn's user (owner identity): the child's session is theirs */
  userKey?: string;
}

/** One child of a session, with its session's message count. */
export interface ChildSessionRow {
  childId: string;
  parentId: string;
  taskIndex: number;
  role: string | null;
  goal: string;
  /** null while the child runs (or when the process stopped before it ended) */
  status: ChildStatus | null;
  durationMs: number | null;
  createdAt: number;
  messages: number;
}

export interface ChildSessionsRepo {
  /** Creates the child's session (key `delegate:<parentId>`) and its link; returns the child's session id. */
  start(child: NewChildSession): string;
  /** Records how the child ended and ends its session (reason `delegate <status>`). */
  finish(childId: string, status: ChildStatus, durationMs: number): void;
  /** The children of `parentId`, oldest first (task order within one call). */
  listByParent(parentId: string): ChildSessionRow[];
}

export interface ChildRecord {
  child_id: string;
  parent_id: string;
  task_index: number;
  role: string | null;
  goal: string;
  status: ChildStatus | null;
  duration_ms: number | null;
  created_at: number;
  messages: number;
}

/** Goals are stored for listing only: a short, redacted first part. */
export const GOAL_MAX_CHARS = 500;

export const toChildRow = (r: ChildRecord): ChildSessionRow => ({
  childId: r.child_id,
  parentId: r.parent_id,
  taskIndex: r.task_index,
  role: r.role,
  goal: r.goal,
  status: r.status,
  durationMs: r.duration_ms,
  createdAt: r.created_at,
  messages: r.messages,
});

/** The child's own session, as `sessions.create` takes it. */
export function childSession(child: NewChildSession): NewSession {
  return {
    key: `delegate:${child.parentId}`,
    platform: child.platform,
    ...(child.model !== undefined ? { model: child.model } : {}),
    ...(child.userKey !== undefined ? { userKey: child.userKey } : {}),
  };
}

type LinkValues = [childId: string, parentId: string, taskIndex: number, role: string | null, goal: string, at: number];

/** The values of the child's `child_sessions` row (the goal cut short and redacted). */
export function linkValues(
  childId: string,
  child: NewChildSession,
  redact: (text: string) => string,
  at: number,
): LinkValues {
  return [
    childId,
    child.parentId,
    child.taskIndex,
    child.role ?? null,
    redact(child.goal.slice(0, GOAL_MAX_CHARS)),
    at,
  ];
}

/** Builds the child-sessions repository; every statement is prepared here, once. */
export function createChildSessionsRepo(
  db: SqliteDatabase,
  now: () => number,
  sessions: SessionsRepo,
  redact: (text: string) => string = (text) => text,
): ChildSessionsRepo {
  const link = db.prepare<LinkValues>(
    `INSERT INTO child_sessions (child_id, parent_id, task_index, role, goal, created_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const finish = db.prepare<[ChildStatus, number, string]>(
    'UPDATE child_sessions SET status = ?, duration_ms = ? WHERE child_id = ?',
  );
  const byParent = db.prepare<[string], ChildRecord>(
    `SELECT c.child_id, c.parent_id, c.task_index, c.role, c.goal, c.status, c.duration_ms, c.created_at,
            (SELECT COUNT(*) FROM messages m WHERE m.session_id = c.child_id) AS messages
     FROM child_sessions c WHERE c.parent_id = ? ORDER BY c.created_at, c.task_index, c.rowid`,
  );
  const startTx = db.transaction((child: NewChildSession): string => {
    const row = sessions.create(childSession(child));
    link.run(...linkValues(row.id, child, redact, now()));
    return row.id;
  });
  const finishTx = db.transaction((childId: string, status: ChildStatus, durationMs: number) => {
    finish.run(status, Math.max(0, Math.round(durationMs)), childId);
    sessions.end(childId, `delegate ${status}`);
  });

  return {
    start: (child) => startTx.immediate(child),
    finish: (childId, status, durationMs) => finishTx.immediate(childId, status, durationMs),
    listByParent: (parentId) => byParent.all(parentId).map(toChildRow),
  };
}

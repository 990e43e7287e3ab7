import type { AsyncMethods } from '../async-store.js';
import {
  type ChildRecord,
  type ChildSessionsRepo,
  childSession,
  linkValues,
  toChildRow,
} from '../child-sessions-repo.js';
import { inPgTransaction, type PgQueryable, pgRows } from './pg-db.js';
import { createPgSessionsRepo } from './pg-sessions.js';

/** `delegate_task` children on PostgreSQL: the child's session and its link written in one transaction. */
export function createPgChildSessionsRepo(
  pool: PgQueryable,
  now: () => number,
  redact: (text: string) => string = (text) => text,
): AsyncMethods<ChildSessionsRepo> {
  return {
    start: (child) =>
      inPgTransaction(pool, async (client) => {
        const row = await createPgSessionsRepo(client, now).create(childSession(child));
        await client.query(
          `INSERT INTO child_sessions (child_id, parent_id, task_index, role, goal, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
          linkValues(row.id, child, redact, now()),
        );
        return row.id;
      }),
    finish: (childId, status, durationMs) =>
      inPgTransaction(pool, async (client) => {
        await client.query('UPDATE child_sessions SET status = $1, duration_ms = $2 WHERE child_id = $3', [
          status,
          Math.max(0, Math.round(durationMs)),
          childId,
        ]);
        await createPgSessionsRepo(client, now).end(childId, `delegate ${status}`);
      }),
    async listByParent(parentId) {
      const rows = await pgRows<ChildRecord>(
        pool,
        `SELECT c.child_id, c.parent_id, c.task_index, c.role, c.goal, c.status, c.duration_ms, c.created_at,
                (SELECT COUNT(*) FROM messages m WHERE m.session_id = c.child_id) AS messages
         FROM child_sessions c JOIN sessions s ON s.id = c.child_id
         WHERE c.parent_id = $1 ORDER BY c.created_at, c.task_index, s.ord`,
        [parentId],
      );
      return rows.map(toChildRow);
    },
  };
}

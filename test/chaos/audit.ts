// Reads state.db after the run (the gateway stopped): the inbox row of each chaos message, and
// whether each answered exchange is in the transcripts exactly once.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { KEY_PATTERN } from './model.js';

export interface StateAudit {
  /** inbox statuses per chaos message key */
  inbox: Map<number, string[]>;
  /** inbox rows per status */
  inboxByStatus: Record<string, number>;
  /** outbox rows per status */
  outboxByStatus: Record<string, number>;
  /** outbox rows not sent, per chaos key: `status: last error` */
  unsent: Map<number, string[]>;
  /** user messages in transcripts, per chaos key */
  userTurns: Map<number, number>;
  /** assistant answers (`ack chaos-m<N>`) in transcripts, per chaos key */
  assistantTurns: Map<number, number>;
  /** when each of those answers was stored (created_at, ms), per chaos key */
  assistantStoredAt: Map<number, number[]>;
}

function countBy(rows: { status: string; n: number }[]): Record<string, number> {
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

function bump(map: Map<number, number>, key: number): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/** Opens `home`/state.db read-only and collects the audit. */
export function auditState(home: string): StateAudit {
  const db = new Database(join(home, 'state.db'), { readonly: true, fileMustExist: true });
  try {
    const inbox = new Map<number, string[]>();
    for (const row of db.prepare('SELECT status, payload FROM inbox').all() as { status: string; payload: string }[]) {
      const text = (JSON.parse(row.payload) as { text?: unknown }).text;
      const match = typeof text === 'string' ? KEY_PATTERN.exec(text) : null;
      if (!match) continue;
      const key = Number(match[1]);
      inbox.set(key, [...(inbox.get(key) ?? []), row.status]);
    }
    const unsent = new Map<number, string[]>();
    const unsentRows = db
      .prepare(
        "SELECT i.payload AS payload, o.status AS status, o.last_error AS error FROM outbox o JOIN inbox i ON o.inbox_id = i.id WHERE o.status != 'sent'",
      )
      .all() as { payload: string; status: string; error: string | null }[];
    for (const row of unsentRows) {
      const text = (JSON.parse(row.payload) as { text?: unknown }).text;
      const match = typeof text === 'string' ? KEY_PATTERN.exec(text) : null;
      if (!match) continue;
      const key = Number(match[1]);
      unsent.set(key, [...(unsent.get(key) ?? []), `${row.status}: ${row.error ?? ''}`]);
    }
    const userTurns = new Map<number, number>();
    const assistantTurns = new Map<number, number>();
    const assistantStoredAt = new Map<number, number[]>();
    const messages = db
      .prepare("SELECT role, content, created_at FROM messages WHERE role IN ('user', 'assistant')")
      .all() as {
      role: string;
      content: string | null;
      created_at: number;
    }[];
    for (const m of messages) {
      const match = m.content === null ? null : KEY_PATTERN.exec(m.content);
      if (!match) continue;
      const key = Number(match[1]);
      if (m.role === 'user') bump(userTurns, key);
      else if (m.content?.startsWith('ack ')) {
        bump(assistantTurns, key);
        assistantStoredAt.set(key, [...(assistantStoredAt.get(key) ?? []), m.created_at]);
      }
    }
    return {
      inbox,
      inboxByStatus: countBy(
        db.prepare('SELECT status, COUNT(*) AS n FROM inbox GROUP BY status').all() as { status: string; n: number }[],
      ),
      outboxByStatus: countBy(
        db.prepare('SELECT status, COUNT(*) AS n FROM outbox GROUP BY status').all() as { status: string; n: number }[],
      ),
      unsent,
      userTurns,
      assistantTurns,
      assistantStoredAt,
    };
  } finally {
    db.close();
  }
}

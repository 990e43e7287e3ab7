// Reads state.db (or, in cluster mode, the PostgreSQL database: audit-postgres.ts) after the run (the gateway stopped): the inbox row of each chaos message, and
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

function countBy(rows: { status: string; n: number | string }[]): Record<string, number> {
  // PostgreSQL's COUNT(*) is a bigint, which pg returns as a string
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

function bump(map: Map<number, number>, key: number): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/** The rows the audit reads, as the store keeps them on either backend. */
export interface AuditRows {
  inbox: { status: string; payload: string }[];
  /** outbox rows not sent, with their inbox row's payload */
  unsent: { payload: string; status: string; error: string | null }[];
  /** user and assistant messages of every transcript */
  messages: { role: string; content: string | null; created_at: number | string }[];
  inboxByStatus: { status: string; n: number | string }[];
  outboxByStatus: { status: string; n: number | string }[];
}

/** the queries of the audit; the same tables and columns on SQLite and PostgreSQL */
export const AUDIT_QUERIES = {
  inbox: 'SELECT status, payload FROM inbox',
  unsent:
    "SELECT i.payload AS payload, o.status AS status, o.last_error AS error FROM outbox o JOIN inbox i ON o.inbox_id = i.id WHERE o.status != 'sent'",
  messages: "SELECT role, content, created_at FROM messages WHERE role IN ('user', 'assistant')",
  inboxByStatus: 'SELECT status, COUNT(*) AS n FROM inbox GROUP BY status',
  outboxByStatus: 'SELECT status, COUNT(*) AS n FROM outbox GROUP BY status',
} as const satisfies Record<keyof AuditRows, string>;

/** Opens `home`/state.db read-only and collects the audit. */
export function auditState(home: string): StateAudit {
  const db = new Database(join(home, 'state.db'), { readonly: true, fileMustExist: true });
  try {
    const all = <T>(sql: string) => db.prepare(sql).all() as T[];
    return summarizeAudit({
      inbox: all(AUDIT_QUERIES.inbox),
      unsent: all(AUDIT_QUERIES.unsent),
      messages: all(AUDIT_QUERIES.messages),
      inboxByStatus: all(AUDIT_QUERIES.inboxByStatus),
      outboxByStatus: all(AUDIT_QUERIES.outboxByStatus),
    });
  } finally {
    db.close();
  }
}

/** The audit from the rows: inbox statuses, unsent outbox rows and transcript turns per chaos key. */
export function summarizeAudit(rows: AuditRows): StateAudit {
  const inbox = new Map<number, string[]>();
  for (const row of rows.inbox) {
    const text = (JSON.parse(row.payload) as { text?: unknown }).text;
    const match = typeof text === 'string' ? KEY_PATTERN.exec(text) : null;
    if (!match) continue;
    const key = Number(match[1]);
    inbox.set(key, [...(inbox.get(key) ?? []), row.status]);
  }
  const unsent = new Map<number, string[]>();
  for (const row of rows.unsent) {
    const text = (JSON.parse(row.payload) as { text?: unknown }).text;
    const match = typeof text === 'string' ? KEY_PATTERN.exec(text) : null;
    if (!match) continue;
    const key = Number(match[1]);
    unsent.set(key, [...(unsent.get(key) ?? []), `${row.status}: ${row.error ?? ''}`]);
  }
  const userTurns = new Map<number, number>();
  const assistantTurns = new Map<number, number>();
  const assistantStoredAt = new Map<number, number[]>();
  for (const m of rows.messages) {
    const match = m.content === null ? null : KEY_PATTERN.exec(m.content);
    if (!match) continue;
    const key = Number(match[1]);
    if (m.role === 'user') bump(userTurns, key);
    else if (m.content?.startsWith('ack ')) {
      bump(assistantTurns, key);
      assistantStoredAt.set(key, [...(assistantStoredAt.get(key) ?? []), Number(m.created_at)]);
    }
  }
  return {
    inbox,
    inboxByStatus: countBy(rows.inboxByStatus),
    outboxByStatus: countBy(rows.outboxByStatus),
    unsent,
    userTurns,
    assistantTurns,
    assistantStoredAt,
  };
}

/** What the transcripts hold for one chaos key, for a failure message. */
export function turnsOf(audit: StateAudit, key: number): string {
  return `user turns ${audit.userTurns.get(key) ?? 0}, answers ${audit.assistantTurns.get(key) ?? 0}`;
}

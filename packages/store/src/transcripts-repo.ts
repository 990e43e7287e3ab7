import { type ChatMessage, ERROR_CODES, HermesError } from '@hermes/protocol';
import { decodeMessage, encodeMessage, type MessageColumns, type StoredMessage } from './message-codec.js';
import type { SearchIndex } from './search-index.js';
import { isSqliteError, type SqliteDatabase } from './sqlite.js';
import { ownTransaction, type WriteScope } from './write-scope.js';

/** Tokens as the model reports them (`usage`): what a turn used, or a session's sum (migration 19). */
export interface SessionTokens {
  prompt_tokens: number;
  completion_tokens: number;
}

/** A turn's tokens, or null when the model reported none. */
type Used = SessionTokens | null;

export interface TranscriptsRepo {
  /**
   * Appends `messages` to the session in one transaction, numbering them after the current last
   * `seq`, and bumps the session's `updatedAt`; `tokens` (the turn's reported usage) are added to
   * the session's sums in that same UPDATE. Returns the last `seq` (0 for an empty transcript).
   */
  append(sessionId: string, messages: readonly ChatMessage[], tokens?: SessionTokens | null): number;
  /** The tokens the session's turns used, summed (undefined: no such session). */
  tokens(sessionId: string): SessionTokens | undefined;
  /** The session's messages in `seq` order, as the exact ChatMessage objects that were appended. */
  list(sessionId: string): ChatMessage[];
  /** How many messages the session has. */
  count(sessionId: string): number;
  /**
   * Deletes the session's last exchange: its last user message and every message after it
   * (`/undo`, `/retry`). Returns them in order (empty when the session has no user message).
   */
  dropLastExchange(sessionId: string): ChatMessage[];
}

/** Builds the transcripts repository; every statement and the append transaction are created here, once. */
export function createTranscriptsRepo(
  db: SqliteDatabase,
  now: () => number,
  redact?: (text: string) => string,
  /** session_search's index, told how many messages it takes were queued (search-index.ts) */
  searchIndex?: SearchIndex,
  /** the group commit's units: append opens no savepoint of its own inside one (write-scope.ts) */
  scope?: WriteScope,
): TranscriptsRepo {
  const lastSeq = db
    .prepare<[string], number>('SELECT COALESCE(MAX(seq), 0) FROM messages WHERE session_id = ?')
    .pluck();
  // positional parameters: binding by name costs a property lookup per column on every row
  const insert = db.prepare<
    [string, number, MessageColumns['role'], string | null, string | null, string | null, string | null, number]
  >(
    `INSERT INTO messages (session_id, seq, role, content, tool_calls, tool_call_id, name, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const touch = db.prepare<[number, string]>('UPDATE sessions SET updated_at = ? WHERE id = ?');
  const touchWithTokens = db.prepare<[number, number, number, string]>(
    'UPDATE sessions SET updated_at = ?, prompt_tokens = prompt_tokens + ?, completion_tokens = completion_tokens + ? WHERE id = ?',
  );
  const tokens = db.prepare<[string], SessionTokens>(
    'SELECT prompt_tokens, completion_tokens FROM sessions WHERE id = ?',
  );
  const list = db.prepare<[string], StoredMessage>(
    'SELECT session_id, seq, role, content, tool_calls, tool_call_id, name FROM messages WHERE session_id = ? ORDER BY seq',
  );
  const count = db.prepare<[string], number>('SELECT COUNT(*) FROM messages WHERE session_id = ?').pluck();
  const lastUserSeq = db
    .prepare<[string], number | null>("SELECT MAX(seq) FROM messages WHERE session_id = ? AND role = 'user'")
    .pluck();
  const fromSeq = db.prepare<[string, number], StoredMessage>(
    'SELECT session_id, seq, role, content, tool_calls, tool_call_id, name FROM messages WHERE session_id = ? AND seq >= ? ORDER BY seq',
  );
  const deleteFrom = db.prepare<[string, number]>('DELETE FROM messages WHERE session_id = ? AND seq >= ?');
  // a context summary that covered a dropped message no longer matches the transcript
  const dropSummaries = db.prepare<[string, string]>(
    'DELETE FROM context_summaries WHERE session_id = ? AND keep_from > (SELECT COUNT(*) FROM messages WHERE session_id = ?)',
  );
  const dropTx = db.transaction((sessionId: string): ChatMessage[] => {
    const seq = lastUserSeq.get(sessionId);
    if (seq === null || seq === undefined) return [];
    const dropped = fromSeq.all(sessionId, seq).map(decodeMessage);
    deleteFrom.run(sessionId, seq);
    dropSummaries.run(sessionId, sessionId);
    touch.run(now(), sessionId);
    return dropped;
  });

  const appendTx = ownTransaction(
    db,
    scope,
    (sessionId: string, messages: readonly ChatMessage[], used: Used): number => {
      const at = now();
      let seq = lastSeq.get(sessionId) ?? 0;
      let searchable = 0;
      for (const message of messages) {
        seq += 1;
        const c = encodeMessage(message, redact);
        insert.run(sessionId, seq, c.role, c.content, c.tool_calls, c.tool_call_id, c.name, at);
        // what the insert trigger queues for session_search (migration 18)
        if ((c.role === 'user' || c.role === 'assistant') && c.content !== null) searchable += 1;
      }
      if (messages.length > 0 && used) {
        touchWithTokens.run(at, tokenCount(used.prompt_tokens), tokenCount(used.completion_tokens), sessionId);
      } else if (messages.length > 0) touch.run(at, sessionId);
      if (searchable > 0) searchIndex?.queued(searchable);
      return seq;
    },
  );

  return {
    append(sessionId, messages, used) {
      try {
        // IMMEDIATE: take the write lock before reading MAX(seq), so two writers cannot pick the same seq
        // (inside a unit of work the group commit's IMMEDIATE transaction holds it already)
        return appendTx(sessionId, messages, used ?? null);
      } catch (error) {
        if (isSqliteError(error, 'SQLITE_CONSTRAINT_FOREIGNKEY')) {
          throw new HermesError(ERROR_CODES.STATE_DB, `cannot append to unknown session ${sessionId}`, {
            cause: error,
          });
        }
        throw error;
      }
    },
    list(sessionId) {
      return list.all(sessionId).map(decodeMessage);
    },
    count(sessionId) {
      return count.get(sessionId) ?? 0;
    },
    tokens(sessionId) {
      return tokens.get(sessionId);
    },
    dropLastExchange: (sessionId) => dropTx.immediate(sessionId),
  };
}

/** A reported token count as a whole number of tokens (a model may send none, or nonsense). */
export function tokenCount(n: number): number {
  return Number.isFinite(n) && n > 0 ? Math.round(n) : 0;
}

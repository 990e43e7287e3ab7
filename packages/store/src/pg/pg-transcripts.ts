import { type ChatMessage, ERROR_CODES, HermesError } from '@hermes/protocol';
import type pg from 'pg';
import type { AsyncMethods } from '../async-store.js';
import { decodeMessage, encodeMessage, type StoredMessage } from '../message-codec.js';
import { type SessionTokens, type TranscriptsRepo, tokenCount } from '../transcripts-repo.js';
import { inPgTransaction, type PgQueryable, pgRow, pgRows } from './pg-db.js';

async function appendOn(
  client: pg.PoolClient,
  sessionId: string,
  messages: readonly ChatMessage[],
  at: number,
  used: SessionTokens | null,
  redact?: (text: string) => string,
): Promise<number> {
  if (messages.length > 0) {
    // the session row's lock orders concurrent appends (two writers never pick the same seq)
    const session = await pgRow<{ id: string }>(client, 'SELECT id FROM sessions WHERE id = $1 FOR UPDATE', [
      sessionId,
    ]);
    if (!session) throw new HermesError(ERROR_CODES.STATE_DB, `cannot append to unknown session ${sessionId}`);
  }
  const last = await pgRow<{ seq: number }>(
    client,
    'SELECT COALESCE(MAX(seq), 0) AS seq FROM messages WHERE session_id = $1',
    [sessionId],
  );
  let seq = last?.seq ?? 0;
  if (messages.length === 0) return seq;
  const values: unknown[] = [];
  const tuples: string[] = [];
  for (const message of messages) {
    seq += 1;
    const c = encodeMessage(message, redact);
    const base = values.length;
    values.push(sessionId, seq, c.role, c.content, c.tool_calls, c.tool_call_id, c.name, at);
    tuples.push(`(${Array.from({ length: 8 }, (_, i) => `$${base + i + 1}`).join(', ')})`);
  }
  await client.query(
    `INSERT INTO messages (session_id, seq, role, content, tool_calls, tool_call_id, name, created_at)
     VALUES ${tuples.join(', ')}`,
    values,
  );
  if (used) {
    await client.query(
      'UPDATE sessions SET updated_at = $1, prompt_tokens = prompt_tokens + $3, completion_tokens = completion_tokens + $4 WHERE id = $2',
      [at, sessionId, tokenCount(used.prompt_tokens), tokenCount(used.completion_tokens)],
    );
  } else await client.query('UPDATE sessions SET updated_at = $1 WHERE id = $2', [at, sessionId]);
  return seq;
}

/** Transcripts on PostgreSQL: one multi-row INSERT per append, in one transaction. */
export function createPgTranscriptsRepo(
  pool: PgQueryable,
  now: () => number,
  redact?: (text: string) => string,
): AsyncMethods<TranscriptsRepo> {
  return {
    append: (sessionId, messages, used) =>
      inPgTransaction(pool, (client) => appendOn(client, sessionId, messages, now(), used ?? null, redact)),
    async tokens(sessionId) {
      const row = await pgRow<{ prompt_tokens: string | number; completion_tokens: string | number }>(
        pool,
        'SELECT prompt_tokens, completion_tokens FROM sessions WHERE id = $1',
        [sessionId],
      );
      // BIGINT columns come back as strings
      return row && { prompt_tokens: Number(row.prompt_tokens), completion_tokens: Number(row.completion_tokens) };
    },
    async list(sessionId) {
      const rows = await pgRows<StoredMessage>(
        pool,
        'SELECT session_id, seq, role, content, tool_calls, tool_call_id, name FROM messages WHERE session_id = $1 ORDER BY seq',
        [sessionId],
      );
      return rows.map(decodeMessage);
    },
    async count(sessionId) {
      const row = await pgRow<{ n: number }>(pool, 'SELECT COUNT(*) AS n FROM messages WHERE session_id = $1', [
        sessionId,
      ]);
      return row?.n ?? 0;
    },
    dropLastExchange: (sessionId) =>
      inPgTransaction(pool, async (client) => {
        await client.query('SELECT id FROM sessions WHERE id = $1 FOR UPDATE', [sessionId]);
        const last = await pgRow<{ seq: number | null }>(
          client,
          "SELECT MAX(seq) AS seq FROM messages WHERE session_id = $1 AND role = 'user'",
          [sessionId],
        );
        if (last?.seq === null || last?.seq === undefined) return [];
        const rows = await pgRows<StoredMessage>(
          client,
          'DELETE FROM messages WHERE session_id = $1 AND seq >= $2 RETURNING session_id, seq, role, content, tool_calls, tool_call_id, name',
          [sessionId, last.seq],
        );
        // a context summary that covered a dropped message no longer matches the transcript
        await client.query(
          'DELETE FROM context_summaries WHERE session_id = $1 AND keep_from > (SELECT COUNT(*) FROM messages WHERE session_id = $1)',
          [sessionId],
        );
        await client.query('UPDATE sessions SET updated_at = $1 WHERE id = $2', [now(), sessionId]);
        return rows.sort((a, b) => a.seq - b.seq).map(decodeMessage);
      }),
  };
}

import { type ChatMessage, ERROR_CODES, HermesError, type ToolCall } from '@hermes/protocol';

/** The columns of `messages` that carry a ChatMessage. */
export interface MessageColumns {
  role: ChatMessage['role'];
  content: string | null;
  tool_calls: string | null;
  tool_call_id: string | null;
  name: string | null;
}

/** A `messages` row as read back (`role` is whatever the file holds), with its session and seq for errors. */
export type StoredMessage = Omit<MessageColumns, 'role'> & { role: string; session_id: string; seq: number };

/** `columns` with the content and every string inside the tool calls redacted (the JSON stays valid). */
function redactColumns(
  columns: MessageColumns,
  message: ChatMessage,
  redact: (text: string) => string,
): MessageColumns {
  const content = columns.content === null ? null : redact(columns.content);
  const toolCalls =
    message.role === 'assistant' && message.tool_calls !== undefined
      ? JSON.stringify(message.tool_calls, (_key, value: unknown) =>
          typeof value === 'string' ? redact(value) : value,
        )
      : columns.tool_calls;
  return { ...columns, content, tool_calls: toolCalls };
}

/** Flattens a ChatMessage into columns; assistant `tool_calls` become JSON, absent fields NULL. */
export function encodeMessage(message: ChatMessage, redact?: (text: string) => string): MessageColumns {
  if (redact !== undefined) return redactColumns(encodeMessage(message), message, redact);
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content, tool_calls: null, tool_call_id: null, name: null };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content,
        tool_calls: message.tool_calls === undefined ? null : JSON.stringify(message.tool_calls),
        tool_call_id: null,
        name: null,
      };
    case 'tool':
      return {
        role: 'tool',
        content: message.content,
        tool_calls: null,
        tool_call_id: message.tool_call_id,
        name: message.name ?? null,
      };
  }
}

function corrupt(row: StoredMessage, what: string, cause?: unknown): HermesError {
  return new HermesError(
    ERROR_CODES.STATE_DB,
    `corrupt transcript row (session ${row.session_id} seq ${row.seq}): ${what}`,
    cause === undefined ? {} : { cause },
  );
}

function requireText(value: string | null, row: StoredMessage, column: string): string {
  if (value === null) throw corrupt(row, `${column} is NULL`);
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseToolCall(value: unknown, row: StoredMessage): ToolCall {
  if (!isRecord(value) || typeof value.id !== 'string' || value.type !== 'function') {
    throw corrupt(row, 'tool_calls entry lacks id or type "function"');
  }
  const fn = value.function;
  if (!isRecord(fn) || typeof fn.name !== 'string' || typeof fn.arguments !== 'string') {
    throw corrupt(row, 'tool_calls entry lacks function.name or function.arguments');
  }
  return { id: value.id, type: 'function', function: { name: fn.name, arguments: fn.arguments } };
}

function parseToolCalls(text: string, row: StoredMessage): ToolCall[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw corrupt(row, 'tool_calls is not JSON', error);
  }
  if (!Array.isArray(parsed)) throw corrupt(row, 'tool_calls is not an array');
  return parsed.map((entry) => parseToolCall(entry, row));
}

/** Rebuilds the exact ChatMessage from a row, adding no field that was absent; corrupt rows throw STATE_DB. */
export function decodeMessage(row: StoredMessage): ChatMessage {
  switch (row.role) {
    case 'system':
    case 'user':
      return { role: row.role, content: requireText(row.content, row, 'content') };
    case 'assistant':
      return row.tool_calls === null
        ? { role: 'assistant', content: row.content }
        : { role: 'assistant', content: row.content, tool_calls: parseToolCalls(row.tool_calls, row) };
    case 'tool': {
      const message: ChatMessage = {
        role: 'tool',
        content: requireText(row.content, row, 'content'),
        tool_call_id: requireText(row.tool_call_id, row, 'tool_call_id'),
      };
      if (row.name !== null) message.name = row.name;
      return message;
    }
    default:
      throw corrupt(row, `unknown role ${JSON.stringify(row.role)}`);
  }
}

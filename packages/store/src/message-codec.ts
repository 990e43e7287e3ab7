import { type ChatMessage, ERROR_CODES, HermesError, type ToolCall } from '@hermes/protocol';

/** The columns of `messages` that carry a ChatMessage. */
export interface MessageColumns {
  role: ChatMessage['role'];
  content: string | null;
  tool_calls: string | null;
  tool_call_id: string | null;
  name: string | null;
}

/** A `messages` row as read back: `role` is whatever the file holds. */
export type StoredMessage = Omit<MessageColumns, 'role'> & { role: string };

/** Flattens a ChatMessage into columns; assistant `tool_calls` become JSON, absent fields NULL. */
export function encodeMessage(message: ChatMessage): MessageColumns {
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

function corrupt(where: string, what: string): HermesError {
  return new HermesError(ERROR_CODES.STATE_DB, `corrupt transcript row (${where}): ${what}`);
}

function requireText(value: string | null, where: string, column: string): string {
  if (value === null) throw corrupt(where, `${column} is NULL`);
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseToolCall(value: unknown, where: string): ToolCall {
  if (!isRecord(value) || typeof value.id !== 'string' || value.type !== 'function') {
    throw corrupt(where, 'tool_calls entry lacks id or type "function"');
  }
  const fn = value.function;
  if (!isRecord(fn) || typeof fn.name !== 'string' || typeof fn.arguments !== 'string') {
    throw corrupt(where, 'tool_calls entry lacks function.name or function.arguments');
  }
  return { id: value.id, type: 'function', function: { name: fn.name, arguments: fn.arguments } };
}

function parseToolCalls(text: string, where: string): ToolCall[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new HermesError(ERROR_CODES.STATE_DB, `corrupt transcript row (${where}): tool_calls is not JSON`, {
      cause: error,
    });
  }
  if (!Array.isArray(parsed)) throw corrupt(where, 'tool_calls is not an array');
  return parsed.map((entry) => parseToolCall(entry, where));
}

/** Rebuilds the exact ChatMessage from a row, adding no field that was absent; `where` names the row in errors. */
export function decodeMessage(row: StoredMessage, where: string): ChatMessage {
  switch (row.role) {
    case 'system':
    case 'user':
      return { role: row.role, content: requireText(row.content, where, 'content') };
    case 'assistant':
      return row.tool_calls === null
        ? { role: 'assistant', content: row.content }
        : { role: 'assistant', content: row.content, tool_calls: parseToolCalls(row.tool_calls, where) };
    case 'tool': {
      const message: ChatMessage = {
        role: 'tool',
        content: requireText(row.content, where, 'content'),
        tool_call_id: requireText(row.tool_call_id, where, 'tool_call_id'),
      };
      if (row.name !== null) message.name = row.name;
      return message;
    }
    default:
      throw corrupt(where, `unknown role ${JSON.stringify(row.role)}`);
  }
}

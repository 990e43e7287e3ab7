/**
 * The JSON a shell hook reads on stdin (the event-hooks seed's wire protocol):
 * `{hook_event_name, tool_name, tool_input, session_id, cwd, extra}`, where `extra` holds every
 * other payload field under its wire name from the hook table.
 */
import { HOOKS, type HookName, type HookPayloads } from '@hermes/protocol';

export interface ShellHookWirePayload {
  hook_event_name: HookName;
  /** the tool, for tool events; null otherwise */
  tool_name: string | null;
  /** the tool's arguments, for tool events; null otherwise */
  tool_input: unknown;
  /** the session; for subagent_stop the parent session, for approval hooks the session key */
  session_id: string | null;
  /** the agent's working directory */
  cwd: string;
  extra: Record<string, unknown>;
}

/** Payload keys that become top-level wire keys (tool_name, tool_input, session_id) instead of `extra`. */
const TOP_LEVEL = new Set(['toolName', 'args', 'arguments', 'sessionId']);

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** Maps a typed payload to the wire shape (values untouched; see `serializeWirePayload`). */
export function wirePayload<K extends HookName>(event: K, payload: HookPayloads[K], cwd: string): ShellHookWirePayload {
  const fields: Readonly<Record<string, { wire: string }>> = HOOKS[event].fields;
  const record = payload as Readonly<Record<string, unknown>>;
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (TOP_LEVEL.has(key)) continue;
    extra[fields[key]?.wire ?? key] = value;
  }
  const toolEvent = Object.hasOwn(fields, 'toolName');
  return {
    hook_event_name: event,
    tool_name: toolEvent ? stringOrNull(record.toolName) : null,
    tool_input: toolEvent ? (record.args ?? record.arguments ?? null) : null,
    session_id:
      stringOrNull(record.sessionId) ?? stringOrNull(record.parentSessionId) ?? stringOrNull(record.sessionKey),
    cwd,
    extra,
  };
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * JSON text of a wire payload. Values JSON cannot hold are stringified rather than dropped:
 * bigint, functions, symbols and class instances without `toJSON` become `String(value)`
 * (an Error its name and message), `undefined` becomes null, a reference back to an enclosing
 * object "[Circular]".
 */
export function serializeWirePayload(payload: ShellHookWirePayload): string {
  const seen = new WeakSet<object>();
  const convert = (value: unknown): unknown => {
    switch (typeof value) {
      case 'string':
      case 'boolean':
        return value;
      case 'number':
        return Number.isFinite(value) ? value : String(value);
      case 'undefined':
        return null;
      case 'bigint':
      case 'symbol':
      case 'function':
        return String(value);
      default:
        break;
    }
    if (value === null) return null;
    const object = value as object;
    if (seen.has(object)) return '[Circular]';
    if (Array.isArray(object)) {
      seen.add(object);
      const out = object.map(convert);
      seen.delete(object);
      return out;
    }
    const toJSON = (object as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return convert(toJSON.call(object));
    if (object instanceof Error) return `${object.name}: ${object.message}`;
    if (!isPlainObject(object)) return String(object);
    seen.add(object);
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(object)) out[key] = convert(inner);
    seen.delete(object);
    return out;
  };
  return JSON.stringify(convert(payload));
}

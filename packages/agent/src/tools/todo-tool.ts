/**
 * The `todo` tool: a task list the model keeps for the session it works in (plan the steps of a
 * long job, tick them off, show the user where it stands). One list per session id, so one user's
 * list is never another's; kept in memory for the life of the process (bounded: the least recently
 * used lists go first), and every call returns the whole list, so the transcript holds it too.
 */
import type { ToolContext, ToolDefinition } from '@hermes/protocol';
import { optionalBoolean, parseArgs, ToolArgumentError } from './tool-args.js';
import { errorResult, jsonResult } from './tool-result.js';

export const TODO_STATUSES = ['pending', 'in_progress', 'completed', 'cancelled'] as const;
export type TodoStatus = (typeof TODO_STATUSES)[number];
export interface TodoItem {
  id: string;
  content: string;
  status: TodoStatus;
}

/** items per list, characters per item, lists kept */
export const TODO_MAX_ITEMS = 100;
export const TODO_MAX_CHARS = 500;
export const TODO_MAX_LISTS = 1_000;

const SCHEMA = {
  name: 'todo',
  description: [
    "The session's task list. Call with no todos to read it. With todos and merge false (default), the list",
    'becomes todos; with merge true, items whose id exists are updated and the others added. Status is one of',
    `${TODO_STATUSES.join(', ')}. Use it for work of three steps or more: write the plan first, keep one item`,
    'in_progress, mark items completed as you finish them. Returns the whole list and counts by status.',
  ].join(' '),
  parameters: {
    type: 'object',
    properties: {
      todos: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            id: { type: 'string', description: 'Stable id (e.g. "1"); given when missing.' },
            content: { type: 'string', description: 'What to do.' },
            status: { type: 'string', enum: [...TODO_STATUSES] },
          },
          required: ['content'],
          additionalProperties: false,
        },
      },
      merge: { type: 'boolean', description: 'Update and add instead of replacing the list (default false).' },
    },
    additionalProperties: false,
  },
};

function readItems(value: unknown): Array<Partial<TodoItem> & { content?: string }> | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value))
    throw new ToolArgumentError('Invalid argument "todos": expected an array of {id?, content, status?}');
  if (value.length > TODO_MAX_ITEMS)
    throw new ToolArgumentError(`Invalid argument "todos": at most ${TODO_MAX_ITEMS} items`);
  return value.map((raw, i) => {
    if (typeof raw !== 'object' || raw === null)
      throw new ToolArgumentError(`Invalid argument "todos[${i}]": expected an object`);
    const item = raw as Record<string, unknown>;
    const out: Partial<TodoItem> = {};
    if (item.id !== undefined) {
      if (typeof item.id !== 'string' && typeof item.id !== 'number')
        throw new ToolArgumentError(`Invalid argument "todos[${i}].id": expected a string`);
      out.id = String(item.id);
    }
    if (item.content !== undefined) {
      if (typeof item.content !== 'string' || item.content.trim() === '')
        throw new ToolArgumentError(`Invalid argument "todos[${i}].content": expected a non-empty string`);
      out.content = item.content.trim().slice(0, TODO_MAX_CHARS);
    }
    if (item.status !== undefined) {
      if (!TODO_STATUSES.includes(item.status as TodoStatus))
        throw new ToolArgumentError(
          `Invalid argument "todos[${i}].status": expected one of ${TODO_STATUSES.join(', ')}`,
        );
      out.status = item.status as TodoStatus;
    }
    return out;
  });
}

/** The lists by session id, least recently used first. */
export class TodoLists {
  readonly #lists = new Map<string, TodoItem[]>();
  constructor(private readonly maxLists = TODO_MAX_LISTS) {}
  get(sessionId: string): TodoItem[] {
    const list = this.#lists.get(sessionId) ?? [];
    this.#lists.delete(sessionId);
    if (list.length > 0) this.#lists.set(sessionId, list);
    return list;
  }
  set(sessionId: string, list: TodoItem[]): void {
    this.#lists.delete(sessionId);
    if (list.length > 0) this.#lists.set(sessionId, list);
    while (this.#lists.size > this.maxLists) this.#lists.delete(this.#lists.keys().next().value as string);
  }
}

function nextId(list: readonly TodoItem[]): string {
  let n = list.length + 1;
  while (list.some((t) => t.id === String(n))) n++;
  return String(n);
}

/** Applies one call's items to `current`: replaced, or merged by id. */
export function applyTodos(
  current: readonly TodoItem[],
  items: ReturnType<typeof readItems> & object,
  merge: boolean,
): TodoItem[] | string {
  const list: TodoItem[] = merge ? current.map((t) => ({ ...t })) : [];
  for (const [i, item] of items.entries()) {
    const existing = item.id === undefined ? undefined : list.find((t) => t.id === item.id);
    if (existing) {
      if (item.content !== undefined) existing.content = item.content;
      if (item.status !== undefined) existing.status = item.status;
      continue;
    }
    if (item.content === undefined) return `todos[${i}] has no content and its id "${item.id}" is not in the list`;
    list.push({ id: item.id ?? nextId(list), content: item.content, status: item.status ?? 'pending' });
  }
  return list.length > TODO_MAX_ITEMS ? `the list would have more than ${TODO_MAX_ITEMS} items` : list;
}

/** The todo tool (toolset `todo`); `lists` is shared by the calls of one process. */
export function createTodoTool(lists: TodoLists = new TodoLists()): ToolDefinition {
  const handler = async (args: Record<string, unknown>, context: ToolContext): Promise<string> => {
    const parsed = parseArgs(() => ({ items: readItems(args.todos), merge: optionalBoolean(args, 'merge') ?? false }));
    if (!parsed.ok) return errorResult(parsed.error, { code: parsed.code });
    let list = lists.get(context.sessionId);
    if (parsed.value.items !== undefined) {
      const next = applyTodos(list, parsed.value.items, parsed.value.merge);
      if (typeof next === 'string') return errorResult(next, { todos: list });
      list = next;
      lists.set(context.sessionId, list);
    }
    const counts = Object.fromEntries(TODO_STATUSES.map((s) => [s, list.filter((t) => t.status === s).length]));
    return jsonResult({ todos: list, counts });
  };
  return { name: 'todo', toolset: 'todo', schema: SCHEMA, handler, owner: 'builtin', emoji: '📋' };
}

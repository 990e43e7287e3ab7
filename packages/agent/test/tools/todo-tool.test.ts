import { describe, expect, it } from 'vitest';
import { createTodoTool, TodoLists } from '../../src/tools/todo-tool.js';
import { callTool, createFakeContext } from './fake-tool-context.js';

const inSession = (sessionId: string) => {
  const { context } = createFakeContext();
  return { ...context, sessionId };
};

describe('todo', () => {
  it('writes a plan, updates it by id, and reads it back, per session', async () => {
    const tool = createTodoTool();
    const a = inSession('session-a');
    const written = await callTool(
      tool,
      { todos: [{ content: 'read the logs' }, { content: 'fix the bug', status: 'in_progress' }] },
      a,
    );
    expect(written.todos).toEqual([
      { id: '1', content: 'read the logs', status: 'pending' },
      { id: '2', content: 'fix the bug', status: 'in_progress' },
    ]);
    const merged = await callTool(
      tool,
      { merge: true, todos: [{ id: '1', status: 'completed' }, { content: 'write a test' }] },
      a,
    );
    expect(merged.todos).toEqual([
      { id: '1', content: 'read the logs', status: 'completed' },
      { id: '2', content: 'fix the bug', status: 'in_progress' },
      { id: '3', content: 'write a test', status: 'pending' },
    ]);
    expect(merged.counts).toEqual({ pending: 1, in_progress: 1, completed: 1, cancelled: 0 });
    expect((await callTool(tool, {}, a)).todos).toHaveLength(3);
    // another session (another user's, or a /new one) has its own list
    expect((await callTool(tool, {}, inSession('session-b'))).todos).toEqual([]);
    // without merge the list is replaced
    expect((await callTool(tool, { todos: [{ content: 'only this' }] }, a)).todos).toEqual([
      { id: '1', content: 'only this', status: 'pending' },
    ]);
  });

  it('refuses a bad status or an update of an unknown id, by name, and keeps the list', async () => {
    const tool = createTodoTool();
    const a = inSession('s');
    await callTool(tool, { todos: [{ content: 'one' }] }, a);
    expect((await callTool(tool, { todos: [{ content: 'x', status: 'done' }] }, a)).error).toMatch(
      /todos\[0\]\.status": expected one of pending, in_progress, completed, cancelled/,
    );
    const unknown = await callTool(tool, { merge: true, todos: [{ id: '9', status: 'completed' }] }, a);
    expect(unknown.error).toMatch(/todos\[0\] has no content and its id "9" is not in the list/);
    expect((await callTool(tool, {}, a)).todos).toEqual([{ id: '1', content: 'one', status: 'pending' }]);
  });

  it('keeps a bounded number of lists, the least recently used going first', () => {
    const lists = new TodoLists(2);
    const item = { id: '1', content: 'x', status: 'pending' as const };
    lists.set('a', [item]);
    lists.set('b', [item]);
    lists.get('a');
    lists.set('c', [item]);
    expect(lists.get('b')).toEqual([]);
    expect(lists.get('a')).toEqual([item]);
    expect(lists.get('c')).toEqual([item]);
  });
});

import { HookBus } from '@hermes/plugins';
import { silentLogger } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { readTasks, ToolRegistry, TurnService, withDelegateTool } from '../../src/index.js';
import { delegatingService, tool } from './delegate-helpers.js';

const url = 'http://127.0.0.1:9/v1';

describe('which turns offer delegate_task', () => {
  it('a service with delegation settings offers it under toolset "delegation" when the toolsets enable it', async () => {
    const bus = new HookBus();
    const names = async (toolsets: string[]) =>
      (await delegatingService(url, bus, { tools: [tool('echo', 'test')], toolsets }).availableTools()).map(
        (t) => t.name,
      );
    expect(await names(['*'])).toEqual(['echo', 'delegate_task']);
    expect(await names(['test', 'delegation'])).toEqual(['echo', 'delegate_task']);
    expect(await names(['delegate_task'])).toEqual(['delegate_task']);
    expect(await names(['test'])).toEqual(['echo']);
  });

  it('a service without delegation settings does not offer it', async () => {
    const registry = new ToolRegistry();
    const turns = new TurnService({
      client: delegatingService(url, new HookBus()).settings.client,
      model: 'm',
      tools: registry,
      toolsets: ['*'],
      env: {},
      hooks: new HookBus(),
      logger: silentLogger,
      cwd: process.cwd(),
      maxIterations: 1,
      toolTimeoutMs: 1_000,
    });
    expect(await turns.availableTools()).toEqual([]);
  });

  it("a plugin's own delegate_task is kept", () => {
    const mine = tool('delegate_task', 'plugin');
    const builtin = tool('delegate_task', 'delegation');
    expect(withDelegateTool([mine], builtin, ['*'])).toEqual([mine]);
  });
});

describe('delegate_task arguments', () => {
  it('reads one task or a batch and names what is wrong', () => {
    expect(readTasks({ goal: 'g' })).toEqual([{ goal: 'g', context: null, toolsets: null }]);
    expect(readTasks({ tasks: [{ goal: 'a', context: 'c', toolsets: ['web'] }] })).toEqual([
      { goal: 'a', context: 'c', toolsets: ['web'] },
    ]);
    expect(() => readTasks({})).toThrow('give either "goal" (one task) or "tasks" (a batch)');
    expect(() => readTasks({ goal: 'a', tasks: [] })).toThrow('not both');
    expect(() => readTasks({ tasks: [] })).toThrow('tasks must be a non-empty array');
    expect(() => readTasks({ tasks: 'x' })).toThrow('got string');
    expect(() => readTasks({ goal: '  ' })).toThrow('goal must be a non-empty string, got string');
    expect(() => readTasks({ goal: 'a', context: 3 })).toThrow('context must be a string, got number');
    expect(() => readTasks({ goal: 'a', toolsets: 'web' })).toThrow('toolsets must be an array');
    expect(() => readTasks({ tasks: Array.from({ length: 11 }, () => ({ goal: 'g' })) })).toThrow('at most 10');
    expect(() => readTasks({ tasks: [null] })).toThrow('tasks[0] must be an object');
  });
});

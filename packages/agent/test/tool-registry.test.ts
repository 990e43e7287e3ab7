// The registry's list and available tools: sorted by name, and current after every register and
// unregister (the sorted list is kept between turns, so a change must make it again).
import type { ToolDefinition } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../src/tool-registry.js';

const tool = (name: string, more: Partial<ToolDefinition> = {}): ToolDefinition => ({
  name,
  toolset: 'test',
  schema: { name, description: name, parameters: { type: 'object', properties: {} } },
  handler: async () => 'ok',
  ...more,
});

const names = (tools: readonly ToolDefinition[]) => tools.map((t) => t.name);

describe('ToolRegistry', () => {
  it('lists and offers the tools by name, and follows registers and unregisters between turns', async () => {
    const registry = new ToolRegistry();
    registry.register(tool('zeta'));
    const dropAlpha = registry.register(tool('alpha'));
    const options = { env: {}, toolsets: ['*'] };
    expect(names(registry.list())).toEqual(['alpha', 'zeta']);
    expect(names(await registry.available(options))).toEqual(['alpha', 'zeta']);
    registry.register(tool('mid'));
    expect(names(await registry.available(options))).toEqual(['alpha', 'mid', 'zeta']);
    dropAlpha();
    dropAlpha(); // a second call changes nothing
    expect(names(registry.list())).toEqual(['mid', 'zeta']);
    expect(names(await registry.available(options))).toEqual(['mid', 'zeta']);
    // a list handed out is the caller's: changing it leaves the registry alone
    registry.list().pop();
    expect(names(registry.list())).toEqual(['mid', 'zeta']);
    registry.register(tool('keyed', { requiresEnv: ['KEY'] }));
    expect(names(await registry.available(options))).toEqual(['mid', 'zeta']);
    expect(names(await registry.available({ ...options, env: { KEY: 'x' } }))).toEqual(['keyed', 'mid', 'zeta']);
  });
});

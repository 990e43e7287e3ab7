// ctx.registerMemoryProvider: a well-formed provider lands in the registry (and leaves with a
// rollback); a malformed one fails register() naming the member; `builtin` is reserved; a second
// provider of the same name is refused.
import { ToolRegistry } from '@hermes/agent';
import { type MemoryProvider, silentLogger } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { createPluginContext, HookBus, PluginRegistries } from '../src/index.js';

function scoped(registries: PluginRegistries, key = 'memory/notes') {
  return createPluginContext({
    key,
    dir: `/plugins/${key}`,
    logger: silentLogger,
    tools: new ToolRegistry(),
    hooks: new HookBus(),
    host: { registries },
  });
}

const good: MemoryProvider = {
  name: 'notes',
  systemPromptBlock: () => '',
  tools: [
    { name: 'note', schema: { name: 'note', description: 'd', parameters: { type: 'object' } }, handler: () => 'ok' },
  ],
};

describe('ctx.registerMemoryProvider', () => {
  it('registers the provider with its plugin; rollback removes it', () => {
    const registries = new PluginRegistries();
    const s = scoped(registries);
    s.ctx.registerMemoryProvider(good);
    expect(registries.memoryProviders.get('notes')).toEqual({ name: 'notes', plugin: 'memory/notes', provider: good });
    s.rollback();
    expect(registries.memoryProviders.size).toBe(0);
  });

  it('refuses malformed providers, naming the member', () => {
    const registries = new PluginRegistries();
    const { ctx } = scoped(registries);
    const cases: [unknown, string][] = [
      [null, 'expected a provider object'],
      [{ name: 'Bad Name', systemPromptBlock: () => '' }, 'name: expected a lower-case name'],
      [{ name: 'builtin', systemPromptBlock: () => '' }, 'name "builtin" is reserved'],
      [{ name: 'x' }, 'provider "x" has no systemPromptBlock(session) method'],
      [{ name: 'x', systemPromptBlock: () => '', sync: 'no' }, 'provider "x": sync must be a function when given'],
      [{ name: 'x', systemPromptBlock: () => '', tools: {} }, 'provider "x": tools must be an array'],
      [
        { name: 'x', systemPromptBlock: () => '', tools: [{ name: 'bad name!' }] },
        'provider "x": tools[0] needs a name',
      ],
      [
        { name: 'x', systemPromptBlock: () => '', tools: [{ name: 't', schema: {} }] },
        'provider "x": tool "t" has no handler',
      ],
    ];
    for (const [provider, message] of cases) {
      expect(() => ctx.registerMemoryProvider(provider as MemoryProvider)).toThrow(
        expect.objectContaining({
          message: expect.stringContaining(`plugin memory/notes: registerMemoryProvider: ${message}`),
        }),
      );
    }
    expect(registries.memoryProviders.size).toBe(0);
  });

  it('a second provider of the same name is refused', () => {
    const registries = new PluginRegistries();
    scoped(registries).ctx.registerMemoryProvider(good);
    expect(() => scoped(registries, 'memory/other').ctx.registerMemoryProvider(good)).toThrow(
      'memory provider "notes" is already registered',
    );
  });
});

// ctx.registerModelProvider: a good profile lands in registries.modelProviders (frozen, with its
// owner) and goes on rollback; a bad one fails register() naming the field; a second plugin cannot
// take a name already registered (a user override replaces the bundled plugin before loading).
import { silentLogger } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { createPluginContext, HookBus, PluginRegistries } from '../src/index.js';

function setup(key = 'model-providers/acme', registries = new PluginRegistries()) {
  const tools = { register: () => () => {} };
  const scoped = createPluginContext({
    key,
    dir: '/x',
    logger: silentLogger,
    tools,
    hooks: new HookBus(),
    host: { registries },
  });
  return { registries, scoped, ctx: scoped.ctx };
}

const good = {
  name: 'acme',
  baseUrl: 'https://llm.acme.example/v1',
  apiKeyEnv: 'ACME_API_KEY',
  defaultModel: 'acme-chat',
  contextLength: 32_000,
  headers: { 'X-Acme-Team': 'support' },
};

describe('ctx.registerModelProvider', () => {
  it('registers a frozen copy with its owner; rollback removes it', () => {
    const { ctx, registries, scoped } = setup();
    ctx.registerModelProvider(good);
    const entry = registries.modelProviders.get('acme');
    expect(entry).toMatchObject({ name: 'acme', plugin: 'model-providers/acme', profile: good });
    expect(Object.isFrozen(entry?.profile)).toBe(true);
    scoped.rollback();
    expect(registries.modelProviders.has('acme')).toBe(false);
  });

  it.each([
    [{ ...good, name: 'Acme Corp' }, 'name: expected a lower-case name'],
    [{ ...good, baseUrl: 'llm.acme.example' }, 'profile "acme": baseUrl: expected an http:// or https:// URL'],
    [{ ...good, apiKeyEnv: 'acme key' }, 'apiKeyEnv: expected an environment variable name'],
    [{ ...good, defaultModel: 3 }, 'defaultModel: expected a model id string'],
    [{ ...good, contextLength: 0 }, 'contextLength: expected a whole number of tokens above 0'],
    [{ ...good, headers: { Authorization: 'Bearer x' } }, 'headers.Authorization: the key goes in apiKeyEnv'],
    [null, 'expected a profile object'],
  ])('refuses %j, naming the field', (profile, message) => {
    const { ctx, registries } = setup();
    expect(() => ctx.registerModelProvider(profile as never)).toThrow(message);
    expect(registries.modelProviders.size).toBe(0);
  });

  it('a second registration of the same name is refused with both names', () => {
    const registries = new PluginRegistries();
    setup('model-providers/acme', registries).ctx.registerModelProvider(good);
    expect(() => setup('other-plugin', registries).ctx.registerModelProvider(good)).toThrow(
      'plugin other-plugin: model provider "acme" is already registered',
    );
  });
});

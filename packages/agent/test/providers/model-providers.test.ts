// Model provider profiles: `[provider:]model` parsing, the custom profile from config, keys from the
// environment, unknown providers named with the known ones, one client per provider built lazily.
import { HookBus } from '@hermes/plugins';
import { HermesError, type ModelProviderProfile } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { ModelClient, ModelProviders, parseModelChoice } from '../../src/index.js';

const profiles: { plugin: string; profile: ModelProviderProfile }[] = [
  {
    plugin: 'model-providers/openrouter',
    profile: { name: 'openrouter', baseUrl: 'https://or.example/v1', apiKeyEnv: 'OR_KEY', defaultModel: 'or-default' },
  },
  {
    plugin: 'model-providers/ollama',
    profile: {
      name: 'ollama',
      baseUrl: 'http://127.0.0.1:11434/v1',
      apiKeyEnv: '',
      defaultModel: 'llama3.2',
      contextLength: 4096,
    },
  },
  { plugin: 'model-providers/custom', profile: { name: 'custom', baseUrl: '', apiKeyEnv: '', defaultModel: '' } },
];

function providers(
  config: Partial<ConstructorParameters<typeof ModelProviders>[0]['config']> = {},
  made: string[] = [],
) {
  return new ModelProviders({
    registered: () => profiles,
    config: {
      provider: 'custom',
      model: 'cfg-model',
      default: 'cfg-model',
      base_url: 'http://127.0.0.1:9/v1',
      api_key: 'sk-config',
      ...config,
    },
    env: { OR_KEY: 'sk-or-secret' },
    makeClient: (p) => {
      made.push(p.name);
      return new ModelClient({
        baseUrl: p.baseUrl,
        apiKey: p.apiKey,
        timeoutMs: 1000,
        maxRetries: 0,
        hooks: new HookBus(),
      });
    },
  });
}

describe('parseModelChoice', () => {
  const known = {
    names: () => ['custom', 'ollama', 'openrouter'],
    defaultModel: (n: string) => (n === 'ollama' ? 'llama3.2' : ''),
  };
  it('reads provider:model at the first colon, a bare model on the current provider, a bare provider as its default', () => {
    expect(parseModelChoice('openrouter:anthropic/claude', known, 'custom')).toEqual({
      ok: true,
      choice: { provider: 'openrouter', model: 'anthropic/claude' },
    });
    expect(parseModelChoice('ollama:llama3.2:3b', known, 'custom')).toEqual({
      ok: true,
      choice: { provider: 'ollama', model: 'llama3.2:3b' },
    });
    expect(parseModelChoice('gpt-4o', known, 'openrouter')).toEqual({
      ok: true,
      choice: { provider: 'openrouter', model: 'gpt-4o' },
    });
    expect(parseModelChoice('ollama', known, 'custom')).toEqual({
      ok: true,
      choice: { provider: 'ollama', model: 'llama3.2' },
    });
    expect(parseModelChoice('ollama:', known, 'custom')).toEqual({
      ok: true,
      choice: { provider: 'ollama', model: 'llama3.2' },
    });
  });

  it('an unknown provider is an error naming the known ones; a provider without a default model asks for one', () => {
    const bad = parseModelChoice('openruoter:x', known, 'custom');
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toContain('unknown model provider "openruoter" (known: custom, ollama, openrouter)');
    const noDefault = parseModelChoice('openrouter:', known, 'custom');
    expect(!noDefault.ok && noDefault.error).toContain('write openrouter:<model>');
    expect(parseModelChoice('  ', known, 'custom').ok).toBe(false);
  });
});

describe('ModelProviders', () => {
  it('custom is model.base_url, model.api_key and model.default, whatever its plugin registered', () => {
    const p = providers().profile('custom');
    expect(p).toMatchObject({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-config', defaultModel: 'cfg-model' });
    expect(providers().primary()).toEqual({ provider: 'custom', model: 'cfg-model' });
  });

  it('custom is known even when no plugin registered it', () => {
    const none = new ModelProviders({
      registered: () => [],
      config: { provider: 'custom', model: 'm', default: 'm', base_url: 'http://127.0.0.1:9/v1', api_key: '' },
      env: {},
      makeClient: () => {
        throw new Error('not here');
      },
    });
    expect(none.names()).toEqual(['custom']);
    expect(none.primary()).toEqual({ provider: 'custom', model: 'm' });
  });

  it("a named provider's key comes from its apiKeyEnv; its default model stands in when no model is given", () => {
    const p = providers({ provider: 'openrouter', model: '' });
    expect(p.profile('openrouter')).toMatchObject({ apiKey: 'sk-or-secret', baseUrl: 'https://or.example/v1' });
    expect(p.primary()).toEqual({ provider: 'openrouter', model: 'or-default' });
    expect(providers({ provider: 'ollama' }).contextLength()).toBe(4096);
    expect(providers().contextLength()).toBeUndefined();
  });

  it('an unknown model.provider or model.fallback fails with a config error naming the known providers', () => {
    expect(() => providers({ provider: 'nope' }).primary()).toThrow(
      /model\.provider: unknown model provider "nope" \(known: custom, ollama, openrouter\)/,
    );
    const error = (() => {
      try {
        providers({ fallback: 'nope:model' }).fallback();
      } catch (err) {
        return err;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(HermesError);
    expect((error as HermesError).code).toBe('HERMES_CONFIG_KEY');
    expect((error as Error).message).toContain('model.fallback "nope:model"');
    expect(providers({ fallback: 'ollama:qwen' }).fallback()).toEqual({ provider: 'ollama', model: 'qwen' });
    expect(providers().fallback()).toBeNull();
  });

  it('model.fallback as a list is a chain in order; a string is a one-item chain; a bad link names itself', () => {
    expect(providers({ fallback: ['ollama:qwen', 'openrouter', 'other-model'] }).fallbacks()).toEqual([
      { provider: 'ollama', model: 'qwen' },
      { provider: 'openrouter', model: 'or-default' },
      { provider: 'custom', model: 'other-model' },
    ]);
    expect(providers({ fallback: 'ollama:qwen' }).fallbacks()).toEqual([{ provider: 'ollama', model: 'qwen' }]);
    expect(providers({ fallback: [] }).fallbacks()).toEqual([]);
    expect(providers({ fallback: ['ollama:qwen', 'openrouter'] }).fallback()).toEqual({
      provider: 'ollama',
      model: 'qwen',
    });
    expect(() => providers({ fallback: ['ollama:qwen', 'nope:x'] }).fallbacks()).toThrow('model.fallback "nope:x"');
  });

  it('builds one client per provider, on first use', () => {
    const made: string[] = [];
    const p = providers({}, made);
    expect(made).toEqual([]);
    const a = p.client('ollama');
    expect(p.client('ollama')).toBe(a);
    p.client('openrouter');
    expect(made).toEqual(['ollama', 'openrouter']);
    expect(() => p.client('nope')).toThrow(/unknown model provider "nope"/);
  });
});

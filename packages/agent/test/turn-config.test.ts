// The one mapping from config.yaml to a turn service's settings (turnConfig) and the one way a turn
// service is built from it (createTurnService), which `hermes -z`, `hermes chat` and the gateway share.
import { defaultConfig, type HermesConfig } from '@hermes/config';
import { HookBus } from '@hermes/plugins';
import { type ContextEngine, ERROR_CODES, silentLogger } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import {
  COMPRESSOR,
  CONTEXT_LENGTH_DEFAULT,
  createTurnService,
  ModelClient,
  ToolRegistry,
  turnConfig,
} from '../src/index.js';

/** config.yaml with every turn key set to a value that is not its default. */
function configured(): HermesConfig {
  const base = defaultConfig();
  return {
    ...base,
    model: { ...base.model, max_tokens: 321, temperature: 0.25, vision: false, context_length: 1000 },
    agent: {
      ...base.agent,
      system_prompt: 'Be brief.',
      toolsets: ['web', 'files'],
      tool_descriptions: 'short',
      model_toolsets: { 'small-model': ['file'] },
      max_iterations: 7,
      tool_timeout_s: 9,
      max_parallel_children: 2,
      child_max_iterations: 4,
      child_timeout_s: 60,
    },
    terminal: { ...base.terminal, cwd: '/srv/work' },
    context: { ...base.context, threshold: 0.5, protect_last_n: 3 },
    auxiliary: { ...base.auxiliary, compression: { ...base.auxiliary.compression, model: 'small-model' } },
  };
}

const summaries = { latest: () => null, save: () => {} };
const noEngines = new Map<string, { engine: ContextEngine }>();

describe('turnConfig', () => {
  it('maps every turn key of config.yaml', () => {
    const turn = turnConfig(configured(), {
      model: 'model-x',
      cwd: '/elsewhere',
      context: { engines: noEngines, summaries },
      skillsIndex: 'the index',
    });
    const { context, ...rest } = turn;
    expect(rest).toEqual({
      model: 'model-x',
      systemPrompt: 'Be brief.',
      toolsets: ['web', 'files'],
      toolDescriptions: 'short',
      modelToolsets: { 'small-model': ['file'] },
      cwd: '/srv/work', // terminal.cwd wins over the process's directory
      maxIterations: 7,
      toolTimeoutMs: 9_000,
      maxTokens: 321,
      temperature: 0.25,
      vision: false,
      delegation: { maxParallelChildren: 2, childMaxIterations: 4, childTimeoutMs: 60_000 },
      skillsIndex: 'the index',
    });
    expect(context).toMatchObject({
      contextLength: 1000,
      contextLengthSet: true,
      threshold: 0.5,
      protectLastN: 3,
      summaryModel: 'small-model',
      summaries,
    });
    expect(context?.engine.name).toBe(COMPRESSOR);
  });

  it('defaults: no max_tokens or temperature, the given cwd, the default window, no context engine without one given', () => {
    const turn = turnConfig(defaultConfig(), { model: 'm', cwd: '/here' });
    expect(turn).toMatchObject({ model: 'm', cwd: '/here', maxTokens: undefined, temperature: undefined });
    expect(turn.context).toBeUndefined();
    const withContext = turnConfig(defaultConfig(), { model: 'm', context: { engines: noEngines, summaries } });
    expect(withContext.context).toMatchObject({ contextLength: CONTEXT_LENGTH_DEFAULT, contextLengthSet: false });
    expect(withContext.cwd).toBe(process.cwd());
  });

  it('an engine nobody registered is a CONFIG_KEY error naming the registered ones', () => {
    const base = defaultConfig();
    const config = { ...base, context: { ...base.context, engine: 'summarizer' } };
    expect(() => turnConfig(config, { model: 'm', context: { engines: noEngines, summaries } })).toThrow(
      expect.objectContaining({
        code: ERROR_CODES.CONFIG_KEY,
        message: expect.stringContaining('(registered: compressor)'),
      }),
    );
  });
});

describe('createTurnService', () => {
  it('runs with the config as given and the process objects, child sessions joined to the delegation limits', () => {
    const turn = turnConfig(configured(), { model: 'model-x' });
    const childSessions = { start: () => 'child', finish: () => {} };
    const transcripts = { list: () => [], append: () => 0 };
    const hooks = new HookBus({ timeoutMs: 100 });
    const client = new ModelClient({
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKey: '',
      timeoutMs: 100,
      maxRetries: 0,
      hooks,
    });
    const redact = (text: string) => text.replace('secret', '***');
    const service = createTurnService(turn, {
      client,
      tools: new ToolRegistry(),
      env: {},
      hooks,
      logger: silentLogger,
      store: { transcripts, childSessions },
      redact,
    });
    const { delegation, ...rest } = turn;
    expect(service.settings).toMatchObject({ ...rest, client, transcripts, maxTokens: 321, temperature: 0.25 });
    expect(service.settings.delegation).toEqual({ ...delegation, sessions: childSessions });
    expect(service.redact('a secret')).toBe('a ***');
    // only a turn service's settings: nothing else of the caller's object
    expect(Object.keys(service.settings)).not.toContain('store');
  });
});

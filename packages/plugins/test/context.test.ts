import { executeToolCall, ToolRegistry } from '@hermes/agent';
import {
  definePlatform,
  HOOK_NAMES,
  HOOKS,
  type Logger,
  type PlatformAdapter,
  silentLogger,
  type ToolContext,
} from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { createPluginContext, HookBus, PluginRegistries } from '../src/index.js';

interface IrcSettings {
  server: string;
}

const ircPlatform = definePlatform({
  name: 'irc',
  capabilities: { maxMessageLength: 400, formatting: 'plain', editing: false, typing: false, threads: false },
  factory: {
    name: 'irc',
    hasCredentials: () => true,
    readSettings: (settings): IrcSettings => {
      if (typeof settings.server !== 'string') throw new TypeError('gateway.platforms.irc.server: expected a string');
      return { server: settings.server };
    },
    create: (): PlatformAdapter => {
      throw new Error('not in this test');
    },
  },
});

function setup(host = true) {
  const tools = new ToolRegistry();
  const hooks = new HookBus();
  const registries = new PluginRegistries();
  const bindings: Record<string, unknown>[] = [];
  const logger: Logger = {
    ...silentLogger,
    child: (b) => {
      bindings.push(b);
      return silentLogger;
    },
  };
  const injected: string[] = [];
  const scoped = createPluginContext({
    key: 'demo',
    dir: '/plugins/demo',
    logger: logger.child({ plugin: 'demo' }),
    tools,
    hooks,
    ...(host
      ? {
          host: {
            registries,
            injectMessage: (text: string) => {
              injected.push(text);
              return true;
            },
            dispatchTool: async (name: string, args: Record<string, unknown>) => JSON.stringify({ name, args }),
          },
        }
      : {}),
  });
  return { tools, hooks, registries, scoped, ctx: scoped.ctx, bindings, injected };
}

const schema = (name: string) => ({ name, description: 'd', parameters: { type: 'object', properties: {} } });
const toolCtx = {
  sessionId: 's',
  taskId: '',
  platform: 'cli',
  cwd: '/',
  signal: new AbortController().signal,
  logger: silentLogger,
  requestApproval: async () => 'deny' as const,
};

describe('PluginContext', () => {
  it('exposes its key, directory and a scoped logger', () => {
    const { ctx, bindings } = setup();
    expect(ctx.key).toBe('demo');
    expect(ctx.dir).toBe('/plugins/demo');
    expect(bindings).toEqual([{ plugin: 'demo' }]);
  });

  it('registerTool: checkFn and requiresEnv hide the tool; description and emoji kept', async () => {
    const { ctx, tools } = setup();
    ctx.registerTool({
      name: 'visible',
      toolset: 'x',
      schema: schema('visible'),
      handler: () => 'v',
      emoji: '🔧',
      description: 'desc',
    });
    ctx.registerTool({
      name: 'hidden',
      toolset: 'x',
      schema: schema('hidden'),
      handler: () => 'h',
      checkFn: () => false,
    });
    ctx.registerTool({
      name: 'needs_env',
      toolset: 'x',
      schema: schema('needs_env'),
      handler: () => 'e',
      requiresEnv: ['DEMO_KEY'],
    });
    const names = async (env: Record<string, string>) =>
      (await tools.available({ env, toolsets: ['*'] })).map((t) => t.name);
    expect(await names({})).toEqual(['visible']);
    expect(await names({ DEMO_KEY: 'k' })).toEqual(['needs_env', 'visible']);
    expect(tools.get('visible')).toMatchObject({ emoji: '🔧', description: 'desc', owner: 'plugin:demo' });
  });

  it('registerTool: async handlers, non-string results serialized, throws become error results', async () => {
    const { ctx, tools, hooks } = setup();
    ctx.registerTool({ name: 'obj', toolset: 'x', schema: schema('obj'), handler: async () => ({ n: 1 }) });
    ctx.registerTool({
      name: 'boom',
      toolset: 'x',
      schema: schema('boom'),
      handler: () => {
        throw new Error('nope');
      },
    });
    const map = new Map(tools.list().map((t) => [t.name, t]));
    const run = (name: string) =>
      executeToolCall(
        { id: 'c1', type: 'function', function: { name, arguments: '{}' } },
        { tools: map, hooks, context: { ...toolCtx, hooks } as Omit<ToolContext, 'toolCallId'>, timeoutMs: 1000 },
      );
    expect((await run('obj')).content).toBe('{"n":1}');
    expect(JSON.parse((await run('boom')).content)).toEqual({ error: 'tool boom failed: nope' });
  });

  it('registerHook accepts every hook of the table and rejects unknown names with a hint', () => {
    const { ctx, hooks } = setup();
    for (const name of HOOK_NAMES) ctx.registerHook(name, () => undefined);
    expect(hooks.count()).toBe(Object.keys(HOOKS).length);
    const untyped = ctx.registerHook as (event: string, callback: () => void) => void;
    expect(() => untyped('post_llm_cal', () => {})).toThrow(/did you mean "post_llm_call"/);
  });

  it('registerCommand, registerCliCommand, registerSkill, registerPlatform, registerWebSearchProvider fill the registries', () => {
    const { ctx, registries, scoped } = setup();
    ctx.registerCommand({ name: 'roll', description: 'roll a die', handler: () => '4' });
    ctx.registerCliCommand({ name: 'demo-tool', help: 'demo', setup: () => {} });
    ctx.registerSkill({ name: 'howto', description: 'how', content: '# How' });
    ctx.registerPlatform(ircPlatform);
    const ddg = { name: 'ddg', isAvailable: () => true, search: () => ({ success: true as const, data: { web: [] } }) };
    ctx.registerWebSearchProvider(ddg);
    expect(registries.commands.get('roll')).toMatchObject({ plugin: 'demo', description: 'roll a die' });
    expect(registries.cliCommands.get('demo-tool')?.plugin).toBe('demo');
    expect(registries.skills.get('demo:howto')).toMatchObject({ content: '# How' });
    expect(registries.platforms.get('irc')?.plugin).toBe('demo');
    expect(registries.webSearchProviders.get('ddg')).toEqual({ name: 'ddg', plugin: 'demo', provider: ddg });
    expect(scoped.commands).toEqual(['/roll', 'hermes demo-tool']);
    expect(() => ctx.registerCommand({ name: 'roll', handler: () => '' })).toThrow(
      /command "roll" is already registered/,
    );
    scoped.rollback();
    expect(registries.commands.size + registries.skills.size + registries.platforms.size).toBe(0);
  });

  it('registerPlatform: typed from the factory settings; a broken registration fails naming the member', () => {
    const { ctx, registries } = setup();
    const settings: IrcSettings | undefined = ircPlatform.factory.readSettings?.({ server: 'irc.local' }, {});
    expect(settings).toEqual({ server: 'irc.local' });
    ctx.registerPlatform(ircPlatform);
    expect(registries.platforms.get('irc')).toMatchObject({
      name: 'irc',
      plugin: 'demo',
      factory: ircPlatform.factory,
    });
    const { factory, capabilities } = ircPlatform;
    const broken: [unknown, string][] = [
      [{ name: 'x' }, 'registerPlatform: x: factory: expected a platform factory object'],
      [{ name: 'x', capabilities, factory }, 'x: factory.name is "irc", not "x"'],
      [{ name: 'irc', capabilities, factory: { ...factory, create: 1 } }, 'irc: factory.create: expected a function'],
      [{ name: 'irc', factory }, 'irc: capabilities: expected an object'],
      [{ name: 'irc', capabilities: { ...capabilities, formatting: 'rtf' }, factory }, 'capabilities.formatting'],
      [{ name: 'irc', capabilities: { ...capabilities, maxMessageLength: 0 }, factory }, 'maxMessageLength'],
    ];
    for (const [registration, message] of broken) {
      // @ts-expect-error plain JavaScript can pass anything
      expect(() => ctx.registerPlatform(registration)).toThrow(message);
    }
    // @ts-expect-error a registration needs its capabilities
    const missing: Parameters<typeof ctx.registerPlatform>[0] = { name: 'irc', factory };
    expect(missing.name).toBe('irc');
  });

  it('dispatchTool and injectMessage go to the host; without one, inject is false and dispatch rejects', async () => {
    const withHost = setup();
    expect(await withHost.ctx.dispatchTool('calc', { x: 1 })).toBe('{"name":"calc","args":{"x":1}}');
    expect(withHost.ctx.injectMessage('hello')).toBe(true);
    expect(withHost.injected).toEqual(['hello']);
    const bare = setup(false);
    expect(bare.ctx.injectMessage('hello')).toBe(false);
    await expect(bare.ctx.dispatchTool('x', {})).rejects.toThrow(/not available/);
    await expect(bare.ctx.llm.complete('hi')).rejects.toThrow(/not available/);
  });
});

/**
 * The `ctx` a plugin's register(ctx) receives: scoped to one plugin (its logger and errors carry
 * its key), recording every registration so a failed register() can be rolled back whole.
 */
import { join } from 'node:path';
import {
  type ContextEngine,
  HOOK_NAMES,
  type HookCallback,
  type HookName,
  type ImageGenProvider,
  isHookName,
  type Logger,
  type MemoryProvider,
  type ModelProviderProfile,
  type PlatformRegistration,
  type ToolContext,
  type ToolDefinition,
  type ToolHandler,
  type ToolSchema,
  type TtsProvider,
  type VideoGenProvider,
  type WebSearchProvider,
} from '@hermes/protocol';
import { checkContextEngine } from './context-engine-check.js';
import { closest } from './did-you-mean.js';
import type { HookBus } from './hook-bus.js';
import { checkImageGenProvider } from './image-gen-check.js';
import { checkMemoryProvider } from './memory-provider-check.js';
import { checkModelProvider } from './model-provider-check.js';
import { checkTtsProvider, checkVideoGenProvider } from './named-provider-check.js';
import { importDependency } from './optional-deps.js';
import { checkPlatformRegistration } from './platform-check.js';
import type { CliCommandBuilder, PluginHostServices, PluginLlm } from './plugin-host.js';
import { checkWebSearchProvider } from './web-provider-check.js';

/** Where plugin tools go: the agent's ToolRegistry satisfies it. */
export interface ToolSink {
  register(tool: ToolDefinition): () => void;
  get?(name: string): ToolDefinition | undefined;
}

export interface RegisterToolInput {
  name: string;
  toolset: string;
  schema: ToolSchema;
  handler: ToolHandler;
  checkFn?: () => boolean | Promise<boolean>;
  requiresEnv?: string[];
  description?: string;
  emoji?: string;
}

export interface RegisterCommandInput {
  name: string;
  description?: string;
  handler: (args: string) => string | undefined | Promise<string | undefined>;
  /** only admins of the bot may run it (users are told so); default false */
  adminOnly?: boolean;
}

export interface RegisterCliCommandInput {
  name: string;
  help?: string;
  setup: (command: CliCommandBuilder) => void;
}

export interface RegisterSkillInput {
  name: string;
  description?: string;
  path?: string;
  content?: string;
}

export interface PluginContext {
  /** the plugin's key: `name`, or `category/name` */
  readonly key: string;
  /** the plugin's folder: its code and the files it ships (read them from here) */
  readonly dir: string;
  /**
   * Where the plugin writes what it keeps at run time (HERMES_HOME/plugin-data/<key>/, created on
   * first use by the plugin): outside its code folder, whose content the operator's consent is bound
   * to (a file written there would make the plugin "changed since approval" at the next start)
   */
  readonly dataDir: string;
  readonly logger: Logger;
  registerTool(tool: RegisterToolInput): void;
  registerHook<K extends HookName>(event: K, callback: HookCallback<K>): void;
  registerCommand(command: RegisterCommandInput): void;
  registerCliCommand(command: RegisterCliCommandInput): void;
  registerSkill(skill: RegisterSkillInput): void;
  /** adds a platform: its name, capabilities and adapter factory (settings typed by the factory) */
  registerPlatform<S>(platform: PlatformRegistration<S>): void;
  /** adds a web search/extract/crawl backend (the instance is kept as is: classes are fine) */
  registerWebSearchProvider(provider: WebSearchProvider): void;
  /** adds an image-generation backend (`image_gen.provider` picks one; the `image_generate` tool calls it) */
  registerImageGenProvider(provider: ImageGenProvider): void;
  /** adds a text-to-speech backend (`tts.provider` picks one; the gateway's voice answers call it) */
  registerTtsProvider(provider: TtsProvider): void;
  /** adds a video-generation backend (registered and listed; no tool of Hermes calls it yet) */
  registerVideoGenProvider(provider: VideoGenProvider): void;
  /** adds a memory provider (`memory.provider` picks the one active; its tools join the `memory` toolset) */
  registerMemoryProvider(provider: MemoryProvider): void;
  /** adds a model provider profile (`model.provider` and `/model provider:model` pick one) */
  registerModelProvider(profile: ModelProviderProfile): void;
  /** adds a context engine (`context.engine` picks one; asked before a request would pass the threshold) */
  registerContextEngine(engine: ContextEngine): void;
  /** runs any registered tool, returning its result string */
  dispatchTool(name: string, args: Record<string, unknown>, context?: Partial<ToolContext>): Promise<string>;
  /**
   * a message into the interactive chat: at the prompt it starts the next turn at once; during a
   * turn it interrupts it (as Ctrl+C) and runs next; a `role` other than `user` is a `[role] `
   * prefix. False where there is no chat (`hermes -z`, the gateway).
   */
  injectMessage(text: string, options?: { role?: string }): boolean;
  /**
   * imports an npm package of the plugin's `optional_dependencies` from HERMES_HOME/node_modules
   * (installed by the operator: `hermes plugins install-deps`); rejects for a package not declared
   */
  importOptional<T = unknown>(name: string): Promise<T>;
  readonly llm: PluginLlm;
}

export interface ScopedContext {
  ctx: PluginContext;
  tools: string[];
  hooks: HookName[];
  commands: string[];
  /** undoes every registration made through ctx */
  rollback(): void;
}

const unavailableLlm: PluginLlm = {
  complete: () => Promise.reject(new Error('ctx.llm is not available in this host')),
  completeStructured: () => Promise.reject(new Error('ctx.llm is not available in this host')),
};

function claim<V>(
  map: Map<string, V>,
  key: string,
  value: V,
  what: string,
  plugin: string,
  undo: (() => void)[],
): void {
  if (map.has(key)) throw new TypeError(`plugin ${plugin}: ${what} "${key}" is already registered`);
  map.set(key, value);
  undo.push(() => {
    if (map.get(key) === value) map.delete(key);
  });
}

/** Builds the context for one plugin. */
export function createPluginContext(options: {
  key: string;
  dir: string;
  logger: Logger;
  tools: ToolSink;
  hooks: HookBus;
  host?: PluginHostServices;
  /** where `importOptional` finds packages (HERMES_HOME/node_modules) and the names plugin.yaml declares */
  optional?: { modulesDir: string | null; names: readonly string[] };
  /** false: a bundled plugin, whose hook callbacks run outside the fault scope (HookOwner.scoped) */
  scoped?: boolean;
}): ScopedContext {
  const undo: (() => void)[] = [];
  const tools: string[] = [];
  const hooks: HookName[] = [];
  const commands: string[] = [];
  const { key, logger, host } = options;
  const registries = host?.registries;
  const needName = (value: unknown, what: string): string => {
    if (typeof value !== 'string' || !/^[A-Za-z0-9_:-]{1,64}$/.test(value)) {
      throw new TypeError(`plugin ${key}: ${what} needs a name of letters, digits, "-" or "_"`);
    }
    return value;
  };
  const ctx: PluginContext = {
    key,
    dir: options.dir,
    dataDir: host?.dataRoot ? join(host.dataRoot, ...key.split('/')) : options.dir,
    logger,
    llm: host?.llm ?? unavailableLlm,
    registerTool(tool) {
      if (typeof tool !== 'object' || tool === null) throw new TypeError(`plugin ${key}: registerTool needs an object`);
      if (typeof tool.schema !== 'object' || tool.schema === null) {
        throw new TypeError(`plugin ${key}: tool "${tool.name}" needs a schema {name, description, parameters}`);
      }
      undo.push(options.tools.register({ ...tool, owner: `plugin:${key}` }));
      tools.push(tool.name);
    },
    registerHook(event, callback) {
      if (!isHookName(event)) {
        const hint = closest(String(event), HOOK_NAMES);
        throw new TypeError(
          `plugin ${key}: unknown hook "${String(event)}"${hint ? ` (did you mean "${hint}"?)` : ''}`,
        );
      }
      const owner = { source: 'plugin', name: key, ...(options.scoped === false ? { scoped: false } : {}) } as const;
      undo.push(options.hooks.register(event, callback, owner));
      hooks.push(event);
    },
    registerCommand(command) {
      const name = needName(command?.name, 'registerCommand').replace(/^\//, '');
      if (typeof command.handler !== 'function') throw new TypeError(`plugin ${key}: command /${name} needs a handler`);
      if (registries) {
        const value = {
          name,
          description: command.description ?? '',
          handler: command.handler,
          adminOnly: command.adminOnly === true,
          plugin: key,
        };
        claim(registries.commands, name, value, 'command', key, undo);
      }
      commands.push(`/${name}`);
    },
    registerCliCommand(command) {
      const name = needName(command?.name, 'registerCliCommand');
      if (typeof command.setup !== 'function')
        throw new TypeError(`plugin ${key}: CLI command ${name} needs setup(command)`);
      if (registries) {
        const value = { name, help: command.help ?? '', setup: command.setup, plugin: key };
        claim(registries.cliCommands, name, value, 'CLI command', key, undo);
      }
      commands.push(`hermes ${name}`);
    },
    registerSkill(skill) {
      const name = needName(skill?.name, 'registerSkill');
      if (typeof skill.path !== 'string' && typeof skill.content !== 'string') {
        throw new TypeError(`plugin ${key}: skill ${name} needs a path or content`);
      }
      const id = `${key.split('/').pop()}:${name}`;
      if (registries) {
        const value = {
          id,
          description: skill.description ?? '',
          path: skill.path ?? null,
          content: skill.content ?? null,
          plugin: key,
        };
        claim(registries.skills, id, value, 'skill', key, undo);
      }
    },
    registerPlatform(platform) {
      const checked = checkPlatformRegistration(platform, key);
      if (registries) claim(registries.platforms, checked.name, { ...checked, plugin: key }, 'platform', key, undo);
    },
    registerWebSearchProvider(provider) {
      const name = checkWebSearchProvider(provider, key);
      if (registries) {
        claim(registries.webSearchProviders, name, { name, plugin: key, provider }, 'web search provider', key, undo);
      }
    },
    registerImageGenProvider(provider) {
      const name = checkImageGenProvider(provider, key);
      if (registries) {
        claim(registries.imageGenProviders, name, { name, plugin: key, provider }, 'image gen provider', key, undo);
      }
    },
    registerTtsProvider(provider) {
      const name = checkTtsProvider(provider, key);
      if (registries) claim(registries.ttsProviders, name, { name, plugin: key, provider }, 'TTS provider', key, undo);
    },
    registerVideoGenProvider(provider) {
      const name = checkVideoGenProvider(provider, key);
      if (registries) {
        claim(registries.videoGenProviders, name, { name, plugin: key, provider }, 'video gen provider', key, undo);
      }
    },
    registerMemoryProvider(provider) {
      const name = checkMemoryProvider(provider, key);
      if (registries) {
        claim(registries.memoryProviders, name, { name, plugin: key, provider }, 'memory provider', key, undo);
      }
    },
    registerModelProvider(profile) {
      const checked = checkModelProvider(profile, key);
      if (registries) {
        const value = { name: checked.name, plugin: key, profile: checked };
        claim(registries.modelProviders, checked.name, value, 'model provider', key, undo);
      }
    },
    registerContextEngine(engine) {
      const name = checkContextEngine(engine, key);
      if (registries)
        claim(registries.contextEngines, name, { name, plugin: key, engine }, 'context engine', key, undo);
    },
    dispatchTool(name, args, context) {
      if (!host?.dispatchTool) return Promise.reject(new Error('ctx.dispatchTool is not available in this host'));
      return host.dispatchTool(name, args, context);
    },
    injectMessage(text, opts) {
      return host?.injectMessage ? host.injectMessage(text, opts) : false;
    },
    async importOptional<T>(name: string): Promise<T> {
      const { modulesDir, names } = options.optional ?? { modulesDir: null, names: [] };
      if (!names.includes(name)) {
        throw new Error(`plugin ${key}: ${name} is not in the optional_dependencies of its plugin.yaml`);
      }
      if (modulesDir === null) throw new Error(`plugin ${key}: no HERMES_HOME/node_modules to import ${name} from`);
      return (await importDependency(modulesDir, name)) as T;
    },
  };
  return {
    ctx,
    tools,
    hooks,
    commands,
    rollback() {
      for (const fn of undo.reverse()) fn();
      undo.length = 0;
      tools.length = 0;
      hooks.length = 0;
      commands.length = 0;
    },
  };
}

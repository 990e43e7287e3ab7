/**
 * The `ctx` a plugin's register(ctx) receives: scoped to one plugin (its logger and errors carry
 * its key), recording every registration so a failed register() can be rolled back whole.
 */
import {
  type HookCallback,
  type HookName,
  isHookName,
  type Logger,
  type ToolDefinition,
  type ToolHandler,
  type ToolSchema,
} from '@hermes/protocol';
import type { HookBus } from './hook-bus.js';

/** Where plugin tools go: the agent's ToolRegistry satisfies it. */
export interface ToolSink {
  register(tool: ToolDefinition): () => void;
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

export interface PluginContext {
  /** the plugin's key: `name`, or `category/name` */
  readonly key: string;
  /** the plugin's folder, for its data files */
  readonly dir: string;
  readonly logger: Logger;
  registerTool(tool: RegisterToolInput): void;
  registerHook<K extends HookName>(event: K, callback: HookCallback<K>): void;
}

export interface ScopedContext {
  ctx: PluginContext;
  tools: string[];
  hooks: HookName[];
  /** undoes every registration made through ctx */
  rollback(): void;
}

/** Builds the context for one plugin. */
export function createPluginContext(options: {
  key: string;
  dir: string;
  logger: Logger;
  tools: ToolSink;
  hooks: HookBus;
}): ScopedContext {
  const undo: (() => void)[] = [];
  const tools: string[] = [];
  const hooks: HookName[] = [];
  const { key, logger } = options;
  const ctx: PluginContext = {
    key,
    dir: options.dir,
    logger,
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
        logger.warn({ plugin: key, hook: event }, `plugin ${key} registered unknown hook "${String(event)}"; ignored`);
        return;
      }
      undo.push(options.hooks.register(event, callback, { source: 'plugin', name: key }));
      hooks.push(event);
    },
  };
  return {
    ctx,
    tools,
    hooks,
    rollback() {
      for (const fn of undo.reverse()) fn();
      undo.length = 0;
      tools.length = 0;
      hooks.length = 0;
    },
  };
}

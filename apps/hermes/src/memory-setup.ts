/**
 * Memory for a runtime: the provider `memory.provider` names (builtin, or a plugin's registered
 * with ctx.registerMemoryProvider, so this runs after the plugins loaded), its tools in the
 * registry (toolset `memory`), and each session's block kept in state.db. An unknown provider is
 * an error in the log and on stderr naming the registered ones; the agent runs without memory.
 */
import { stderr } from 'node:process';
import { createBuiltinMemoryProvider, MemoryManager, selectMemoryProvider, type ToolRegistry } from '@hermes/agent';
import type { PluginRegistries } from '@hermes/plugins';
import type { Logger } from '@hermes/protocol';
import type { AsyncStore } from '@hermes/store';
import type { Settings } from './settings.js';

export interface MemorySetupOptions {
  settings: Settings;
  registries: PluginRegistries;
  store: AsyncStore;
  tools: ToolRegistry;
  logger: Logger;
  redact: (text: string) => string;
  /** say an unknown provider on stderr too (the CLI; the gateway's console shows the log) */
  warnOnStderr: boolean;
}

/** Picks the provider, registers its tools and returns the manager the turn services use. */
export function setupMemory(options: MemorySetupOptions): MemoryManager {
  const { config, home } = options.settings;
  const choice = selectMemoryProvider(config.memory.provider, options.registries.memoryProviders, () =>
    createBuiltinMemoryProvider({
      home,
      limits: { memory: config.memory.memory_char_limit, user: config.memory.user_char_limit },
      redact: options.redact,
      owner: config.users.owner,
    }),
  );
  const manager = new MemoryManager({
    provider: choice.provider,
    ...(choice.problem ? { problem: choice.problem } : {}),
    snapshots: options.store.memorySnapshots,
    logger: options.logger,
  });
  if (choice.problem) {
    options.logger.error({ memoryProvider: config.memory.provider }, choice.problem);
    // on a terminal the logger's console prints it as one line already
    if (options.warnOnStderr && !stderr.isTTY) stderr.write(`hermes: error: ${choice.problem}\n`);
  }
  for (const tool of manager.tools()) {
    try {
      options.tools.register(tool);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      options.logger.error({ tool: tool.name }, `memory tool "${tool.name}" not registered: ${message}`);
    }
  }
  return manager;
}

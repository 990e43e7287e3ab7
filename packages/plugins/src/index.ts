// @hermes/plugins: the hook bus (one dispatcher for plugin, shell and gateway hooks) and plugin loading.

export { parseBlock, parseContext, parseDispatch, parseTransform } from './combine.js';
// The hook bus
export {
  HOOK_TIMEOUT_DEFAULT_MS,
  HookBus,
  type HookBusOptions,
  type HookRegistrationInfo,
  type RegisterOptions,
} from './hook-bus.js';
export { type HookOwner, type HookSource, ownerLabel } from './hook-owner.js';
// Docs
export { HOOK_REFERENCE_BEGIN, HOOK_REFERENCE_END, hookReferenceMarkdown } from './hook-reference.js';
// Plugins
export { type PluginManifest, readManifest } from './manifest.js';
export {
  createPluginContext,
  type PluginContext,
  type RegisterToolInput,
  type ScopedContext,
  type ToolSink,
} from './plugin-context.js';
export {
  ENTRY_FILES,
  type LoadPluginsOptions,
  loadPlugins,
  type PluginRecord,
  type PluginSource,
  type PluginSourceKind,
  type PluginState,
} from './plugin-loader.js';

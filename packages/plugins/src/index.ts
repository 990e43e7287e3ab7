// @hermes/plugins: the hook bus (one dispatcher for plugin, shell and gateway hooks) and plugin loading.

export { parseBlock, parseContext, parseDispatch, parseTransform } from './combine.js';
export { closest } from './did-you-mean.js';
// Plugins: discovery, manifests, loading, the context
export { type DiscoveredPlugin, discoverPlugins, type PluginSource, type PluginSourceKind } from './discover.js';
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
export {
  type EnvRequirement,
  ManifestError,
  PLUGIN_KINDS,
  type PluginKind,
  type PluginManifest,
  readManifest,
  validateManifest,
} from './manifest.js';
export {
  createPluginContext,
  type PluginContext,
  type RegisterCliCommandInput,
  type RegisterCommandInput,
  type RegisterSkillInput,
  type RegisterToolInput,
  type ScopedContext,
  type ToolSink,
} from './plugin-context.js';
export {
  type CliCommand,
  type CliCommandBuilder,
  type LlmCompleteOptions,
  type PlatformRegistration,
  type PluginHostServices,
  type PluginLlm,
  PluginRegistries,
  type Skill,
  type SlashCommand,
  type WebSearchProviderRegistration,
} from './plugin-host.js';
export { createModuleImporter, type ModuleImporter } from './module-importer.js';
export {
  ENTRY_FILES,
  type LoadPluginsOptions,
  loadPlugins,
  loadsWithoutOptIn,
  type PluginRecord,
  type PluginState,
} from './plugin-loader.js';

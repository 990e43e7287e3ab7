// @hermes/plugins: the hook bus (one dispatcher for plugin, shell and gateway hooks) and plugin loading.

export {
  defaultBlockMessage,
  type HookResultByKind,
  parseBlock,
  parseContext,
  parseDispatch,
  parseHookResult,
  parseTransform,
} from './combine.js';
export { readApprovals } from './consent-file.js';
export { closest } from './did-you-mean.js';
// Plugins: discovery, manifests, loading, the context
export { type DiscoveredPlugin, discoverPlugins, type PluginSource, type PluginSourceKind } from './discover.js';
export { type HookFolderHash, hashHookFolder } from './folder-hash.js';
// The hook bus
export {
  HOOK_TIMEOUT_DEFAULT_MS,
  HookBus,
  type HookBusOptions,
  type HookCallbackObserver,
  type HookCallbackOutcome,
  type HookRegistrationInfo,
  type RegisterOptions,
} from './hook-bus.js';
export { type HookOwner, type HookSource, ownerLabel } from './hook-owner.js';
// Docs
export { HOOK_REFERENCE_BEGIN, HOOK_REFERENCE_END, hookReferenceMarkdown } from './hook-reference.js';
export { checkImageGenProvider } from './image-gen-check.js';
export {
  type EnvRequirement,
  ManifestError,
  PLUGIN_KINDS,
  type PluginKind,
  type PluginManifest,
  readManifest,
  validateManifest,
} from './manifest.js';
export { checkModelProvider } from './model-provider-check.js';
export { createModuleImporter, type ModuleImporter } from './module-importer.js';
export { moduleSyntaxError } from './module-syntax.js';
export { checkTtsProvider, checkVideoGenProvider } from './named-provider-check.js';
export {
  depsMissingMessage,
  installedVersion,
  missingDependencies,
  type OptionalDependency,
  parseOptionalDependency,
} from './optional-deps.js';
export { checkPlatformRegistration } from './platform-check.js';
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
export { type PluginFaultOptions, PluginFaults, pluginScope } from './plugin-faults.js';
export type {
  ContextEngineRegistration,
  ImageGenProviderRegistration,
  MemoryProviderRegistration,
  ModelProviderRegistration,
  TtsProviderRegistration,
  VideoGenProviderRegistration,
} from './plugin-host.js';
export {
  type CliCommand,
  type CliCommandBuilder,
  type LlmCompleteOptions,
  type PlatformRegistryEntry,
  type PluginHostServices,
  type PluginLlm,
  PluginRegistries,
  type Skill,
  type SlashCommand,
  type WebSearchProviderRegistration,
} from './plugin-host.js';
export {
  ENTRY_FILES,
  type LoadPluginsOptions,
  loadPlugins,
  loadsWithoutOptIn,
  type PluginRecord,
  type PluginState,
} from './plugin-loader.js';
export { forgetProcessGroup, killProcessGroup, trackProcessGroup } from './process-groups.js';
// Shell hooks (config.yaml `hooks:`), run as subprocesses through the bus
export {
  ALLOWLIST_FILE,
  type AllowlistEntry,
  allowlistPath,
  CONSENT_VIAS,
  type ConsentVia,
  type GatewayHookApproval,
  ShellHookAllowlist,
} from './shell-hooks/allowlist.js';
export {
  acceptHooksFromEnv,
  autoAcceptVia,
  CONSENT_HINT,
  type ConsentPrompt,
  type ConsentRequest,
  type ConsentState,
  consentState,
} from './shell-hooks/consent.js';
export { type ParsedShellResponse, parseShellResponse, type ShellResultByKind } from './shell-hooks/parse-response.js';
export {
  compileMatcher,
  type ReadShellHooksOptions,
  type ReadShellHooksResult,
  readShellHooks,
  SHELL_HOOK_TIMEOUT_DEFAULT_S,
  SHELL_HOOK_TIMEOUT_MAX_S,
  type ShellHookEntryConfig,
  type ShellHookSpec,
  type ShellHooksConfig,
} from './shell-hooks/read-shell-hooks.js';
export {
  type RegisteredShellHook,
  type RegisterShellHooksOptions,
  type RegisterShellHooksResult,
  registerShellHooks,
  SHELL_HOOK_BUS_GRACE_MS,
  type SkippedShellHook,
  shellHookCallback,
  shellHookOwner,
} from './shell-hooks/register-shell-hooks.js';
export {
  HOOK_OUTPUT_MAX_CHARS,
  type HookProcessOptions,
  type HookProcessResult,
  runHookProcess,
} from './shell-hooks/run-hook-process.js';
export {
  type RunShellHookOptions,
  runShellHook,
  type ShellHookReport,
  type ShellHookResult,
} from './shell-hooks/run-shell-hook.js';
export {
  findOnPath,
  type HookScript,
  hashFile,
  hookScript,
  isExecutable,
  resolveHookScript,
} from './shell-hooks/script-file.js';
export { CommandSyntaxError, type SplitOptions, splitCommand } from './shell-hooks/split-command.js';
export { type SyntheticPayloadOptions, syntheticPayload } from './shell-hooks/synthetic-payload.js';
export { isToolEvent, TOOL_EVENTS, toolNameOf } from './shell-hooks/tool-events.js';
export { type ShellHookWirePayload, serializeWirePayload, wirePayload } from './shell-hooks/wire-payload.js';
export { checkWebSearchProvider, providerSupports, WEB_PROVIDER_NAME } from './web-provider-check.js';
export { yamlFieldLine } from './yaml-field-line.js';

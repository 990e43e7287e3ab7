// @hermes/plugin-sdk: what a plugin author imports. Types for register(ctx), hook payloads and
// results, tools; and definePlugin for full type checking. Plugins loaded by Hermes can import it
// at run time too (the loader maps the name), with no install.

import type { CliCommandBuilder, PluginContext } from '@hermes/plugins';
import type {
  ContextEngine,
  GatewayHookHandler,
  ImageGenProvider,
  MemoryProvider,
  TtsProvider,
  VideoGenProvider,
  WebSearchProvider,
} from '@hermes/protocol';

// The context and its inputs
export type {
  CliCommandBuilder,
  LlmCompleteOptions,
  PluginContext,
  PluginLlm,
  PluginManifest,
  RegisterCliCommandInput,
  RegisterCommandInput,
  RegisterSkillInput,
  RegisterToolInput,
} from '@hermes/plugins';
// Hooks: names, payloads, return types
// Gateway hooks (HERMES_HOME/hooks/<name>/handler.ts): the handler, its third argument, the events
// Platforms: what ctx.registerPlatform takes
export type {
  BlockDecision,
  ChatMessage,
  DispatchDecision,
  DispatchGateway,
  DispatchHandles,
  DispatchSessionStore,
  GatewayEventContext,
  GatewayEventContexts,
  GatewayEventType,
  GatewayHookApi,
  GatewayHookHandler,
  HookAgentResult,
  HookCallback,
  HookName,
  HookPayloads,
  HookReturn,
  HookSendResult,
  Logger,
  MessageEvent,
  PlatformAdapter,
  PlatformCapabilities,
  PlatformContext,
  PlatformFactory,
  PlatformRegistration,
  PlatformSettings,
  ToolContext,
  ToolHandler,
  ToolHandlerResult,
  ToolSchema,
  TrustedFile,
} from '@hermes/protocol';
export { definePlatform } from '@hermes/protocol';

/** A plugin's register function. */
export type RegisterPlugin = (ctx: PluginContext) => void | Promise<void>;

/** Identity helper that type-checks a plugin's register(ctx): `export default definePlugin((ctx) => {...})`. */
export function definePlugin(register: RegisterPlugin): RegisterPlugin {
  if (typeof register !== 'function') throw new TypeError('definePlugin expects the register(ctx) function');
  return register;
}

/** Identity helper that type-checks a gateway hook's handler: `export const handle = defineGatewayHook((event, ctx, hermes) => {...})`. */
export function defineGatewayHook(handle: GatewayHookHandler): GatewayHookHandler {
  return handle;
}

// Web providers: the contract and its envelopes
export type {
  FetchedWebPage,
  FetchWebPage,
  FetchWebPageOptions,
  MaybePromise,
  WebContentFormat,
  WebCrawlOptions,
  WebExtractOptions,
  WebExtractResponse,
  WebFailure,
  WebPage,
  WebSearchHit,
  WebSearchOptions,
  WebSearchProvider,
  WebSearchResponse,
} from '@hermes/protocol';
// Coded errors: a provider or tool may throw a HermesError with one of the stable codes (docs/errors.md)
export { ERROR_CODES, type ErrorCode, HermesError } from '@hermes/protocol';
// The web-provider kit: the API client (key, base URL, auth), base classes whose capability flags
// follow from their methods, the envelopes, bounded concurrency (docs/web-providers.md)
export * from './web-kit/index.js';

/** Identity helper that type-checks a web provider object: `defineWebSearchProvider({ name, isAvailable, search })`. */
export function defineWebSearchProvider<P extends WebSearchProvider>(provider: P): P {
  return provider;
}

// Image generation: the provider contract (ctx.registerImageGenProvider, plugins/image_gen/<name>/);
// model providers: the profile (ctx.registerModelProvider, plugins/model-providers/<name>/)
export type { GeneratedImage, ImageGenProvider, ImageGenRequest, ModelProviderProfile } from '@hermes/protocol';

/** Identity helper that type-checks an image-gen provider: `defineImageGenProvider({ name, isAvailable, generate })`. */
export function defineImageGenProvider<P extends ImageGenProvider>(provider: P): P {
  return provider;
}

// Text to speech: the provider contract (ctx.registerTtsProvider, plugins/tts/<name>/, tts.provider);
// video generation: the provider contract (ctx.registerVideoGenProvider)
export type {
  GeneratedVideo,
  SynthesizedSpeech,
  TtsFormat,
  TtsProvider,
  TtsRequest,
  VideoGenProvider,
  VideoGenRequest,
} from '@hermes/protocol';

/** Identity helper that type-checks a TTS provider: `defineTtsProvider({ name, isAvailable, synthesize })`. */
export function defineTtsProvider<P extends TtsProvider>(provider: P): P {
  return provider;
}

/** Identity helper that type-checks a video-gen provider: `defineVideoGenProvider({ name, isAvailable, generate })`. */
export function defineVideoGenProvider<P extends VideoGenProvider>(provider: P): P {
  return provider;
}

// Memory: the provider contract (ctx.registerMemoryProvider, plugins/memory/<name>/, memory.provider)
export type {
  MemoryProvider,
  MemoryProviderTool,
  MemorySession,
  MemorySessionEnd,
  MemoryTurnEnd,
  MemoryTurnStart,
} from '@hermes/protocol';

/** Identity helper that type-checks a memory provider: `defineMemoryProvider({ name, systemPromptBlock, ... })`. */
export function defineMemoryProvider<P extends MemoryProvider>(provider: P): P {
  return provider;
}

/** What a memory provider plugin's `cli.ts` gets with its `hermes <provider>` command (docs/memory.md). */
export interface MemoryCliInfo {
  /** the provider's name: the command's name, what memory.provider names */
  provider: string;
  /** the plugin's key and folder */
  key: string;
  dir: string;
  /** the plugin's run-time data folder: ctx.dataDir of its register() */
  dataDir: string;
  /** HERMES_HOME (the profile's home) */
  home: string;
}

/** A memory provider plugin's `cli.ts` export: `export const registerCli = defineMemoryCli((command, info) => {...})`. */
export type RegisterMemoryCli = (command: CliCommandBuilder, info: MemoryCliInfo) => void | Promise<void>;

/** Identity helper that types a memory provider plugin's `registerCli` (its `hermes <provider>` commands). */
export function defineMemoryCli(registerCli: RegisterMemoryCli): RegisterMemoryCli {
  return registerCli;
}

// Context engines: the contract (ctx.registerContextEngine, plugins/context_engine/<name>/)
export type { ContextCompression, ContextEngine, ContextEngineInput } from '@hermes/protocol';

/** Identity helper that type-checks a context engine: `defineContextEngine({ name, compress })`. */
export function defineContextEngine<E extends ContextEngine>(engine: E): E {
  return engine;
}

// Platforms: the adapter contract a platform plugin implements (ctx.registerPlatform)
export type { InboundSink, OutboundMessage, PlatformState, SendResult } from '@hermes/protocol';

// The platform kit: reconnect backoff, in-flight tracking for stop(), the status tracker behind
// /health, and pipe tables for platforms without table markup (docs/platforms/write-your-own.md)
export * from './kit/index.js';
// Platform send limits: where they apply (loopback APIs are not paced unless asked)
export { capabilitiesFor, isLoopbackUrl, rateWithin, readSendRateLimit } from './send-rate.js';

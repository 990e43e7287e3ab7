/**
 * What the host (CLI, gateway) lends plugins beyond tools and hooks: registries for slash
 * commands, CLI commands, skills, platforms and web providers, plus tool dispatch, message
 * injection and one-shot LLM access. Registries are plain and owned here; consumers read them.
 */
import type {
  ContextEngine,
  ImageGenProvider,
  MemoryProvider,
  ModelProviderProfile,
  PlatformRegistration,
  ToolContext,
  ToolHandlerResult,
  TtsProvider,
  VideoGenProvider,
  WebSearchProvider,
} from '@hermes/protocol';

/** A `/name` slash command, in chat and (later) the gateway. */
export interface SlashCommand {
  name: string;
  description: string;
  /** the text after the command; returns the reply text */
  handler: (args: string) => string | undefined | Promise<string | undefined>;
  /** registered `adminOnly`: users (not admins) are refused */
  adminOnly?: boolean;
  plugin: string;
}

/** The subset of commander's Command a plugin may use to build `hermes <name> ...`. */
export interface CliCommandBuilder {
  command(nameAndArgs: string): CliCommandBuilder;
  description(text: string): CliCommandBuilder;
  option(flags: string, description?: string): CliCommandBuilder;
  argument(name: string, description?: string): CliCommandBuilder;
  action(fn: (...args: unknown[]) => void | Promise<void>): CliCommandBuilder;
}

export interface CliCommand {
  name: string;
  help: string;
  setup: (command: CliCommandBuilder) => void;
  plugin: string;
}

export interface Skill {
  /** namespaced `plugin:skill` */
  id: string;
  description: string;
  /** the SKILL.md path, or inline content */
  path: string | null;
  content: string | null;
  plugin: string;
}

/** A registered platform (`ctx.registerPlatform`) and the plugin that registered it. */
export interface PlatformRegistryEntry extends PlatformRegistration {
  plugin: string;
}

/** A registered web provider: the instance itself (class instances keep their methods) and its owner. */
export interface WebSearchProviderRegistration {
  name: string;
  plugin: string;
  provider: WebSearchProvider;
}

/** A registered image-generation provider and its owner. */
export interface ImageGenProviderRegistration {
  name: string;
  plugin: string;
  provider: ImageGenProvider;
}

/** A registered text-to-speech provider and its owner (`tts.provider` picks one). */
export interface TtsProviderRegistration {
  name: string;
  plugin: string;
  provider: TtsProvider;
}

/** A registered video-generation provider and its owner. */
export interface VideoGenProviderRegistration {
  name: string;
  plugin: string;
  provider: VideoGenProvider;
}

/** A registered memory provider and its owner (`memory.provider` picks one). */
export interface MemoryProviderRegistration {
  name: string;
  plugin: string;
  provider: MemoryProvider;
}

/** A registered model provider profile (`ctx.registerModelProvider`) and its owner. */
export interface ModelProviderRegistration {
  name: string;
  plugin: string;
  profile: Readonly<ModelProviderProfile>;
}

/** A registered context engine (`context.engine` picks one) and its owner. */
export interface ContextEngineRegistration {
  name: string;
  plugin: string;
  engine: ContextEngine;
}

export interface LlmCompleteOptions {
  system?: string;
  maxTokens?: number;
  temperature?: number;
  signal?: AbortSignal;
}

export interface PluginLlm {
  /** a one-shot completion with the user's model and credentials; resolves with the text */
  complete(prompt: string, options?: LlmCompleteOptions): Promise<string>;
  /** a one-shot completion whose JSON answer is validated against `schema` */
  completeStructured<T = unknown>(
    prompt: string,
    schema: Record<string, unknown>,
    options?: LlmCompleteOptions,
  ): Promise<T>;
}

/** Registries and services shared by every plugin of one host. */
export class PluginRegistries {
  readonly commands = new Map<string, SlashCommand>();
  readonly cliCommands = new Map<string, CliCommand>();
  readonly skills = new Map<string, Skill>();
  readonly platforms = new Map<string, PlatformRegistryEntry>();
  readonly webSearchProviders = new Map<string, WebSearchProviderRegistration>();
  readonly imageGenProviders = new Map<string, ImageGenProviderRegistration>();
  readonly ttsProviders = new Map<string, TtsProviderRegistration>();
  readonly videoGenProviders = new Map<string, VideoGenProviderRegistration>();
  readonly memoryProviders = new Map<string, MemoryProviderRegistration>();
  readonly modelProviders = new Map<string, ModelProviderRegistration>();
  readonly contextEngines = new Map<string, ContextEngineRegistration>();
}

export interface PluginHostServices {
  registries: PluginRegistries;
  /** runs a registered tool by name (the agent's registry) */
  dispatchTool?: (name: string, args: Record<string, unknown>, context?: Partial<ToolContext>) => Promise<string>;
  /** queues a message into the interactive chat; false where there is none */
  injectMessage?: (text: string, options?: { role?: string }) => boolean;
  llm?: PluginLlm;
  /** where plugins keep run-time data: `<dataRoot>/<key>/` (HERMES_HOME/plugin-data); absent: their folder */
  dataRoot?: string;
}

export type { ToolHandlerResult };

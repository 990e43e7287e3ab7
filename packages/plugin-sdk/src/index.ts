// @hermes/plugin-sdk: what a plugin author imports. Types for register(ctx), hook payloads and
// results, tools; and definePlugin for full type checking. Plugins loaded by Hermes can import it
// at run time too (the loader maps the name), with no install.

import type { PluginContext } from '@hermes/plugins';

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
export type {
  BlockDecision,
  ChatMessage,
  DispatchDecision,
  HookCallback,
  HookName,
  HookPayloads,
  HookReturn,
  Logger,
  MessageEvent,
  ToolContext,
  ToolHandler,
  ToolHandlerResult,
  ToolSchema,
} from '@hermes/protocol';

/** A plugin's register function. */
export type RegisterPlugin = (ctx: PluginContext) => void | Promise<void>;

/** Identity helper that type-checks a plugin's register(ctx): `export default definePlugin((ctx) => {...})`. */
export function definePlugin(register: RegisterPlugin): RegisterPlugin {
  if (typeof register !== 'function') throw new TypeError('definePlugin expects the register(ctx) function');
  return register;
}

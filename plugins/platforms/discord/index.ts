/**
 * The bundled Discord platform plugin: registers the adapter factory under the name "discord".
 * Importing it does not load discord.js: the adapter (adapter.ts) is loaded when the platform starts.
 */
import type { PluginContext } from '@hermes/plugin-sdk';
import { DISCORD_CAPABILITIES } from './capabilities.js';
import { discordFactory } from './factory.js';

export { DISCORD_CAPABILITIES } from './capabilities.js';
export { discordFactory } from './factory.js';
export { markdownToDiscord } from './format/markdown-to-discord.js';

/** Registers `{ name: 'discord', capabilities, factory }`; the gateway reads `.factory` from the registry entry. */
export function register(ctx: PluginContext): void {
  ctx.registerPlatform({ name: discordFactory.name, capabilities: DISCORD_CAPABILITIES, factory: discordFactory });
}

export default register;

/** The bundled Discord platform plugin: registers the adapter factory under the name "discord". */
import type { PluginContext } from '@hermes/plugin-sdk';
import { DISCORD_CAPABILITIES } from './adapter.js';
import { discordFactory } from './factory.js';

export { createDiscordAdapter, DISCORD_CAPABILITIES } from './adapter.js';
export { discordFactory } from './factory.js';
export { markdownToDiscord } from './format/markdown-to-discord.js';
export { normalizeMessage } from './normalize.js';
export { parseInteractionCreate, parseMessageCreate } from './payload.js';

/** Registers `{ name: 'discord', capabilities, factory }`; the gateway reads `.factory` from the registry entry. */
export function register(ctx: PluginContext): void {
  ctx.registerPlatform({ name: discordFactory.name, capabilities: DISCORD_CAPABILITIES, factory: discordFactory });
}

export default register;

/**
 * The PlatformFactory registered by the plugin: the credentials check, and an adapter that loads
 * discord.js (adapter.ts) when the platform starts, not when the plugin is imported: settings are
 * checked (and unknown keys warned about) at creation, without the SDK (plugin-sdk's `lazyAdapter`).
 */
import { envCredential, lazyAdapter } from '@hermes/plugin-sdk';
import type { PlatformFactory } from '@hermes/protocol';
import { DISCORD_CAPABILITIES } from './capabilities.js';
import { markdownToDiscord } from './format/markdown-to-discord.js';
import { PLATFORM } from './normalize.js';
import { type DiscordSettings, readDiscordSettings, unknownSettingKeys } from './settings.js';

/** Discord is available when DISCORD_BOT_TOKEN is set. */
export const discordFactory: PlatformFactory<DiscordSettings> = {
  name: PLATFORM,
  ...envCredential('DISCORD_BOT_TOKEN'),
  readSettings: readDiscordSettings,
  create: (context) => {
    const settings = readDiscordSettings(context.settings, context.env);
    const unknown = unknownSettingKeys(context.settings);
    if (unknown.length > 0) {
      context.logger.warn({ unknown }, 'discord: unknown keys in gateway.platforms.discord are ignored');
    }
    return lazyAdapter(context, {
      name: PLATFORM,
      capabilities: DISCORD_CAPABILITIES,
      apiUrl: settings.apiBase,
      holdsConnection: true,
      format: markdownToDiscord,
      methods: ['sendMedia', 'sendTyping', 'askApproval', 'sendButtons', 'closeApproval', 'edit', 'react'],
      load: async (loadContext) => (await import('./adapter.js')).createDiscordAdapter(loadContext),
    });
  },
};

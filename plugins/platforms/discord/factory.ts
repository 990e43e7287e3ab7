/** The PlatformFactory registered by the plugin: credentials check and adapter construction. */
import type { PlatformFactory } from '@hermes/protocol';
import { createDiscordAdapter } from './adapter.js';
import { PLATFORM } from './normalize.js';
import { type DiscordSettings, readDiscordSettings } from './settings.js';

/** Discord is available when DISCORD_BOT_TOKEN is set. */
export const discordFactory: PlatformFactory<DiscordSettings> = {
  name: PLATFORM,
  hasCredentials: (env) => typeof env.DISCORD_BOT_TOKEN === 'string' && env.DISCORD_BOT_TOKEN.trim() !== '',
  instanceKey: (env) => env.DISCORD_BOT_TOKEN?.trim() || undefined,
  readSettings: readDiscordSettings,
  create: (context) => createDiscordAdapter(context),
};

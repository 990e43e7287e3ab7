/** The PlatformFactory registered by the plugin: credentials check and adapter construction. */
import { envCredential } from '@hermes/plugin-sdk';
import type { PlatformFactory } from '@hermes/protocol';
import { createDiscordAdapter } from './adapter.js';
import { PLATFORM } from './normalize.js';
import { type DiscordSettings, readDiscordSettings } from './settings.js';

/** Discord is available when DISCORD_BOT_TOKEN is set. */
export const discordFactory: PlatformFactory<DiscordSettings> = {
  name: PLATFORM,
  ...envCredential('DISCORD_BOT_TOKEN'),
  readSettings: readDiscordSettings,
  create: (context) => createDiscordAdapter(context),
};

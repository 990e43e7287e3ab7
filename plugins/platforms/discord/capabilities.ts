/**
 * What the Discord adapter can do, importable without discord.js: the plugin registers it and the
 * gateway plans around it before the adapter (and its SDK) is loaded.
 */
import { rateWithin } from '@hermes/plugin-sdk';
import type { PlatformCapabilities } from '@hermes/protocol';

/** Discord's upload limit for a bot in a server without boosts (10 MB). */
export const DISCORD_MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

export const DISCORD_CAPABILITIES: PlatformCapabilities = {
  maxMessageLength: 2000,
  formatting: 'markdown',
  editing: true,
  typing: true,
  threads: true,
  reactions: true,
  // Discord: 5 messages per 5 s in one channel (3 at once), 50 requests a second per bot (5 at once)
  sendRate: { perChat: rateWithin(5, 5_000, 3), global: rateWithin(50, 1_000, 5) },
  media: { maxUploadBytes: DISCORD_MAX_UPLOAD_BYTES },
};

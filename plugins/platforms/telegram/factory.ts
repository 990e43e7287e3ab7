/** The PlatformFactory registered by the plugin: credentials check and adapter construction. */
import type { PlatformFactory } from '@hermes/protocol';
import { createTelegramAdapter } from './adapter.js';
import { PLATFORM } from './normalize.js';
import { readTelegramSettings, type TelegramSettings } from './settings.js';

/** Telegram is available when TELEGRAM_BOT_TOKEN is set. */
export const telegramFactory: PlatformFactory<TelegramSettings> = {
  name: PLATFORM,
  hasCredentials: (env) => typeof env.TELEGRAM_BOT_TOKEN === 'string' && env.TELEGRAM_BOT_TOKEN.trim() !== '',
  instanceKey: (env) => env.TELEGRAM_BOT_TOKEN?.trim() || undefined,
  readSettings: readTelegramSettings,
  create: (context) => createTelegramAdapter(context),
};

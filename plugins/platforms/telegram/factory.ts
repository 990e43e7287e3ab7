/** The PlatformFactory registered by the plugin: credentials check and adapter construction. */
import { envCredential } from '@hermes/plugin-sdk';
import type { PlatformFactory } from '@hermes/protocol';
import { createTelegramAdapter } from './adapter.js';
import { PLATFORM } from './normalize.js';
import { readTelegramSettings, type TelegramSettings } from './settings.js';

/** Telegram is available when TELEGRAM_BOT_TOKEN is set. */
export const telegramFactory: PlatformFactory<TelegramSettings> = {
  name: PLATFORM,
  ...envCredential('TELEGRAM_BOT_TOKEN'),
  readSettings: readTelegramSettings,
  create: (context) => createTelegramAdapter(context),
};

/**
 * The PlatformFactory registered by the plugin: the credentials check, and an adapter that loads
 * grammy (adapter.ts) when the platform starts, not when the plugin is imported: settings are
 * checked and the webhook route added at creation, without the SDK (plugin-sdk's `lazyAdapter`).
 */
import { envCredential, lazyAdapter } from '@hermes/plugin-sdk';
import type { PlatformFactory } from '@hermes/protocol';
import { TELEGRAM_CAPABILITIES } from './capabilities.js';
import { markdownToTelegramHtml } from './format/markdown-to-html.js';
import { PLATFORM } from './normalize.js';
import { readTelegramSettings, type TelegramSettings } from './settings.js';
import { webhookSecretFor } from './webhook-secret.js';

/** Telegram is available when TELEGRAM_BOT_TOKEN is set. */
export const telegramFactory: PlatformFactory<TelegramSettings> = {
  name: PLATFORM,
  ...envCredential('TELEGRAM_BOT_TOKEN'),
  readSettings: readTelegramSettings,
  create: (context) => {
    const settings = readTelegramSettings(context.settings, context.env);
    const webhook = webhookSecretFor(settings, context.state) !== undefined;
    return lazyAdapter(context, {
      name: PLATFORM,
      capabilities: TELEGRAM_CAPABILITIES,
      apiUrl: settings.apiRoot,
      holdsConnection: !webhook,
      format: markdownToTelegramHtml,
      methods: ['sendMedia', 'sendTyping', 'askApproval', 'sendButtons', 'closeApproval', 'edit', 'react'],
      routes: webhook ? [{ method: 'POST', path: settings.webhookPath }] : [],
      load: async (loadContext) => (await import('./adapter.js')).createTelegramAdapter(loadContext),
    });
  },
};

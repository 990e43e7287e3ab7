/** The PlatformFactory registered by the plugin: credentials check and adapter construction. */
import { envValue } from '@hermes/plugin-sdk';
import type { PlatformFactory } from '@hermes/protocol';
import { createWhatsAppAdapter } from './adapter.js';
import { PLATFORM, readWhatsAppSettings, type WhatsAppSettings } from './settings.js';

/**
 * WhatsApp is available when WHATSAPP_ACCESS_TOKEN and WHATSAPP_PHONE_NUMBER_ID are set; the app
 * secret and verify token are then required too (create() names the one that is missing). No
 * instance key: webhooks hold no connection, so several gateways may serve one number.
 */
export const whatsappFactory: PlatformFactory<WhatsAppSettings> = {
  name: PLATFORM,
  hasCredentials: (env) =>
    envValue(env, 'WHATSAPP_ACCESS_TOKEN') !== undefined && envValue(env, 'WHATSAPP_PHONE_NUMBER_ID') !== undefined,
  readSettings: readWhatsAppSettings,
  create: (context) => createWhatsAppAdapter(context),
};

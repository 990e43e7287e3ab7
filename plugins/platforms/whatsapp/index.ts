/** The bundled WhatsApp platform plugin: registers the adapter factory under the name "whatsapp". */
import type { PluginContext } from '@hermes/plugin-sdk';
import { WHATSAPP_CAPABILITIES } from './adapter.js';
import { whatsappFactory } from './factory.js';

export { createWhatsAppAdapter, WHATSAPP_CAPABILITIES } from './adapter.js';
export { whatsappFactory } from './factory.js';
export { markdownToWhatsApp } from './format/markdown-to-whatsapp.js';
export { normalizeMessage } from './normalize.js';
export { readWebhook } from './payload.js';
export { checkSignature, signBody } from './signature.js';

/** Registers `{ name: 'whatsapp', capabilities, factory }`; the gateway reads `.factory` from the registry entry. */
export function register(ctx: PluginContext): void {
  ctx.registerPlatform({ name: whatsappFactory.name, capabilities: WHATSAPP_CAPABILITIES, factory: whatsappFactory });
}

export default register;

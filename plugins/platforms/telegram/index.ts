/** The bundled Telegram platform plugin: registers the adapter factory under the name "telegram". */
import type { PluginContext } from '@hermes/plugin-sdk';
import { TELEGRAM_CAPABILITIES } from './adapter.js';
import { telegramFactory } from './factory.js';

export { createTelegramAdapter, TELEGRAM_CAPABILITIES } from './adapter.js';
export { telegramFactory } from './factory.js';
export { markdownToTelegramHtml } from './format/markdown-to-html.js';
export { normalizeUpdate } from './normalize.js';

/** Registers `{ name: 'telegram', capabilities, factory }`; the gateway reads `.factory` from the registry entry. */
export function register(ctx: PluginContext): void {
  ctx.registerPlatform({ name: telegramFactory.name, capabilities: TELEGRAM_CAPABILITIES, factory: telegramFactory });
}

export default register;

/**
 * The bundled Telegram platform plugin: registers the adapter factory under the name "telegram".
 * Importing it does not load grammy: the adapter (adapter.ts) is loaded when the platform starts.
 */
import type { PluginContext } from '@hermes/plugin-sdk';
import { TELEGRAM_CAPABILITIES } from './capabilities.js';
import { telegramFactory } from './factory.js';

export { TELEGRAM_CAPABILITIES } from './capabilities.js';
export { telegramFactory } from './factory.js';
export { markdownToTelegramHtml } from './format/markdown-to-html.js';

/** Registers `{ name: 'telegram', capabilities, factory }`; the gateway reads `.factory` from the registry entry. */
export function register(ctx: PluginContext): void {
  ctx.registerPlatform({ name: telegramFactory.name, capabilities: TELEGRAM_CAPABILITIES, factory: telegramFactory });
}

export default register;

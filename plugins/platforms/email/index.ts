/**
 * The bundled email platform plugin: registers the adapter factory under the name "email".
 * Importing it loads none of imapflow, nodemailer or mailparser: the adapter (adapter.ts) is
 * loaded when the platform starts.
 */
import type { PluginContext } from '@hermes/plugin-sdk';
import { EMAIL_CAPABILITIES } from './capabilities.js';
import { emailFactory } from './factory.js';

export { EMAIL_CAPABILITIES } from './capabilities.js';
export { type EmailFactory, emailFactory } from './factory.js';
export { markdownToPlain } from './format/markdown-to-plain.js';
export { chatIdOf, parseChatId, threadKeyOf, threadKeyOfRoot, threadOfOwnId } from './threads.js';

/** Registers `{ name: 'email', capabilities, factory }`; the gateway reads `.factory` from the registry entry. */
export function register(ctx: PluginContext): void {
  ctx.registerPlatform({ name: emailFactory.name, capabilities: EMAIL_CAPABILITIES, factory: emailFactory });
}

export default register;

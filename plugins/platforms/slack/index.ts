/**
 * The bundled Slack platform plugin: registers the adapter factory under the name "slack".
 * Importing it does not load Bolt: the adapter (adapter.ts) is loaded when the platform starts.
 */
import type { PluginContext } from '@hermes/plugin-sdk';
import { SLACK_CAPABILITIES } from './capabilities.js';
import { slackFactory } from './factory.js';

export { SLACK_CAPABILITIES } from './capabilities.js';
export { slackFactory } from './factory.js';
export { markdownToMrkdwn } from './format/markdown-to-mrkdwn.js';

/** Registers `{ name: 'slack', capabilities, factory }`; the gateway reads `.factory` from the registry entry. */
export function register(ctx: PluginContext): void {
  ctx.registerPlatform({ name: slackFactory.name, capabilities: SLACK_CAPABILITIES, factory: slackFactory });
}

export default register;

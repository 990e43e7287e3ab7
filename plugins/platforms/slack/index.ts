/** The bundled Slack platform plugin: registers the adapter factory under the name "slack". */
import type { PluginContext } from '@hermes/plugin-sdk';
import { SLACK_CAPABILITIES } from './adapter.js';
import { slackFactory } from './factory.js';

export { createSlackAdapter, SLACK_CAPABILITIES } from './adapter.js';
export { slackFactory } from './factory.js';
export { markdownToMrkdwn } from './format/markdown-to-mrkdwn.js';
export { normalizeSlackMessage } from './normalize.js';

/** Registers `{ name: 'slack', capabilities, factory }`; the gateway reads `.factory` from the registry entry. */
export function register(ctx: PluginContext): void {
  ctx.registerPlatform({ name: slackFactory.name, capabilities: SLACK_CAPABILITIES, factory: slackFactory });
}

export default register;

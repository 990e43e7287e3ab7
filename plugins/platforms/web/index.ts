/** The bundled web chat platform plugin: registers the adapter factory under the name "web". */
import type { PluginContext } from '@hermes/plugin-sdk';
import type { PlatformFactory } from '@hermes/protocol';
import { createWebAdapter, WEB_CAPABILITIES } from './adapter.js';
import { PLATFORM } from './routes.js';

export { createWebAdapter, WEB_CAPABILITIES } from './adapter.js';
export { ChatStreams } from './chat-streams.js';

/**
 * The web chat needs no credential: it runs whenever `gateway.platforms.web.enabled` is not false
 * (the gateway sets that from the console's switch, docs/platforms/web.md).
 */
export const webFactory: PlatformFactory = {
  name: PLATFORM,
  hasCredentials: () => true,
  create: (context) => createWebAdapter(context),
};

export function register(ctx: PluginContext): void {
  ctx.registerPlatform({ name: PLATFORM, capabilities: WEB_CAPABILITIES, factory: webFactory });
}

export default register;

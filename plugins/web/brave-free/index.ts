/** The bundled Brave Search provider: search only, enabled by BRAVE_SEARCH_API_KEY. */
import type { PluginContext } from '@hermes/plugin-sdk';
import { BraveSearchProvider } from './provider.js';

/** Plugin entry point: called once at load time. */
export function register(ctx: PluginContext): void {
  ctx.registerWebSearchProvider(new BraveSearchProvider());
}

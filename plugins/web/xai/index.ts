/** The bundled xAI web search provider: search only, enabled by XAI_API_KEY. */
import type { PluginContext } from '@hermes/plugin-sdk';
import { XaiSearchProvider } from './provider.js';

/** Plugin entry point: called once at load time. */
export function register(ctx: PluginContext): void {
  ctx.registerWebSearchProvider(new XaiSearchProvider());
}

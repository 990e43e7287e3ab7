/** The bundled SearXNG provider: search only, enabled by SEARXNG_URL. */
import type { PluginContext } from '@hermes/plugin-sdk';
import { SearxngProvider } from './provider.js';

export function register(ctx: PluginContext): void {
  ctx.registerWebSearchProvider(new SearxngProvider());
}

/** The bundled Tavily provider: search, extract and crawl, enabled by TAVILY_API_KEY. */
import type { PluginContext } from '@hermes/plugin-sdk';
import { TavilyProvider } from './provider.js';

export function register(ctx: PluginContext): void {
  ctx.registerWebSearchProvider(new TavilyProvider());
}

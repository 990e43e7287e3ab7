/** The bundled Firecrawl provider: search, extract (scrape) and crawl, enabled by FIRECRAWL_API_KEY. */
import type { PluginContext } from '@hermes/plugin-sdk';
import { FirecrawlProvider } from './provider.js';

export function register(ctx: PluginContext): void {
  ctx.registerWebSearchProvider(new FirecrawlProvider());
}

/** The bundled Exa provider: search, extract and crawl (subpages), enabled by EXA_API_KEY. */
import type { PluginContext } from '@hermes/plugin-sdk';
import { ExaProvider } from './provider.js';

export function register(ctx: PluginContext): void {
  ctx.registerWebSearchProvider(new ExaProvider());
}

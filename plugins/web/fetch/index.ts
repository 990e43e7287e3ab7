/** The bundled key-free extract provider: always available, the last resort of auto-detection. */
import type { PluginContext } from '@hermes/plugin-sdk';
import { FetchProvider } from './provider.js';

export function register(ctx: PluginContext): void {
  ctx.registerWebSearchProvider(new FetchProvider());
}

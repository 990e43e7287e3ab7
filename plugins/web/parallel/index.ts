/** The bundled Parallel provider: search and extract, enabled by PARALLEL_API_KEY. */
import type { PluginContext } from '@hermes/plugin-sdk';
import { ParallelProvider } from './provider.js';

/** Plugin entry point: called once at load time. */
export function register(ctx: PluginContext): void {
  ctx.registerWebSearchProvider(new ParallelProvider());
}

/** The bundled DuckDuckGo provider: search only, no key; opt-in (hermes plugins enable web/ddgs). */
import type { PluginContext } from '@hermes/plugin-sdk';
import { DdgsProvider } from './provider.js';

/** Plugin entry point: called once at load time, only when the plugin is enabled. */
export function register(ctx: PluginContext): void {
  ctx.registerWebSearchProvider(new DdgsProvider());
}

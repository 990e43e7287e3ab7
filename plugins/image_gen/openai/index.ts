/** The bundled OpenAI-compatible image-gen provider (`image_gen.provider: openai`, the default). */
import type { PluginContext } from '@hermes/plugin-sdk';
import { openAiImageProvider } from './provider.js';

export function register(ctx: PluginContext): void {
  ctx.registerImageGenProvider(openAiImageProvider);
}

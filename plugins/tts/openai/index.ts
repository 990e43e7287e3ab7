/** The bundled OpenAI-compatible TTS provider (`tts.provider: openai`, the default). */
import type { PluginContext } from '@hermes/plugin-sdk';
import { openAiSpeechProvider } from './provider.js';

export function register(ctx: PluginContext): void {
  ctx.registerTtsProvider(openAiSpeechProvider);
}

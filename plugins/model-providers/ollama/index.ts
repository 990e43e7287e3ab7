/** The bundled `ollama` model provider: a local Ollama server's OpenAI-compatible API, no key needed. */
import type { PluginContext } from '@hermes/plugin-sdk';

export function register(ctx: PluginContext): void {
  ctx.registerModelProvider({
    name: 'ollama',
    baseUrl: 'http://127.0.0.1:11434/v1',
    // Ollama needs none; set it for an Ollama behind a proxy that checks one
    apiKeyEnv: 'OLLAMA_API_KEY',
    defaultModel: 'llama3.2',
    // Ollama's default context window (its num_ctx); raise model.context_length with a larger num_ctx
    contextLength: 4096,
  });
}

/** The bundled `openai` model provider: api.openai.com with the key in OPENAI_API_KEY. */
import type { PluginContext } from '@hermes/plugin-sdk';

export function register(ctx: PluginContext): void {
  ctx.registerModelProvider({
    name: 'openai',
    baseUrl: 'https://api.openai.com/v1',
    apiKeyEnv: 'OPENAI_API_KEY',
    defaultModel: 'gpt-4o-mini',
    contextLength: 128_000,
  });
}

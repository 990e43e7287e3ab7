/**
 * The bundled `openrouter` model provider: openrouter.ai with the key in OPENROUTER_API_KEY
 * (OPENROUTER_BASE_URL points it elsewhere: a proxy, or a test's fake server).
 */
import type { PluginContext } from '@hermes/plugin-sdk';

export function register(ctx: PluginContext): void {
  ctx.registerModelProvider({
    name: 'openrouter',
    baseUrl: process.env.OPENROUTER_BASE_URL || 'https://openrouter.ai/api/v1',
    apiKeyEnv: 'OPENROUTER_API_KEY',
    defaultModel: 'openai/gpt-4o-mini',
    contextLength: 128_000,
    // OpenRouter's optional attribution headers (https://openrouter.ai/docs/api-reference/overview)
    headers: { 'HTTP-Referer': 'https://github.com/hermes-gateway/hermes', 'X-Title': 'Hermes Gateway' },
  });
}

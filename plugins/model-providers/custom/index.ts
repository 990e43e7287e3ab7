/**
 * The bundled `custom` model provider (model.provider's default): Hermes fills its base URL, key and
 * default model from model.base_url, model.api_key and model.default, so a config that names no
 * provider works as before. The profile registered here only makes it known and listed.
 */
import type { PluginContext } from '@hermes/plugin-sdk';

export function register(ctx: PluginContext): void {
  ctx.registerModelProvider({ name: 'custom', baseUrl: '', apiKeyEnv: '', defaultModel: '' });
}

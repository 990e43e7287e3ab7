/**
 * The bundled `alibaba-coding-plan` model provider: Alibaba Cloud Model Studio's Coding Plan, a
 * subscription with its own OpenAI-compatible endpoint and its own key (`sk-sp-...`, not a
 * pay-as-you-go Model Studio key) in ALIBABA_CODING_PLAN_API_KEY. The international endpoint by
 * default; ALIBABA_CODING_PLAN_BASE_URL points it elsewhere (the China endpoint
 * https://coding.dashscope.aliyuncs.com/v1, a proxy, or a test's fake server).
 */
import type { PluginContext } from '@hermes/plugin-sdk';

export function register(ctx: PluginContext): void {
  ctx.registerModelProvider({
    name: 'alibaba-coding-plan',
    baseUrl: process.env.ALIBABA_CODING_PLAN_BASE_URL || 'https://coding-intl.dashscope.aliyuncs.com/v1',
    apiKeyEnv: 'ALIBABA_CODING_PLAN_API_KEY',
    // the plan's general model; its list also has qwen3-coder-plus, qwen3-coder-next, qwen3-max, glm, kimi, MiniMax
    defaultModel: 'qwen3.5-plus',
    // qwen3.5-plus's window; the plan's other models have smaller ones (set model.context_length)
    contextLength: 1_000_000,
  });
}

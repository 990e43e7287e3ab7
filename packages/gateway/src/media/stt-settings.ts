/**
 * Where speech to text goes, from config.yaml's `stt` and the environment: `stt.provider: openai`
 * (the default) is an OpenAI-compatible `POST <base>/audio/transcriptions` at stt.base_url (default
 * model.base_url) with model.api_key; `xai` is xAI's own speech to text, `POST <base>/stt` at
 * stt.base_url, else XAI_BASE_URL, else https://api.x.ai/v1, with XAI_API_KEY. HERMES_LOCAL_STT_COMMAND
 * (the operator's environment) runs instead of either.
 */
import type { HermesConfig } from '@hermes/config';
import type { SttSettings } from './transcribe.js';

/** xAI's API root (the same as its chat and search endpoints) */
export const XAI_DEFAULT_BASE_URL = 'https://api.x.ai/v1';

/** The transcription settings of the gateway. */
export function sttSettings(
  config: Pick<HermesConfig, 'stt' | 'model'>,
  env: Readonly<Record<string, string | undefined>>,
  command: string | undefined,
): SttSettings {
  const { stt } = config;
  const common = { model: stt.model, timeoutMs: stt.timeout_s * 1000, ...(command ? { command } : {}) };
  if (stt.provider === 'xai') {
    return {
      ...common,
      provider: 'xai',
      baseUrl: stt.base_url ?? (env.XAI_BASE_URL || XAI_DEFAULT_BASE_URL),
      apiKey: env.XAI_API_KEY ?? '',
    };
  }
  return {
    ...common,
    provider: 'openai',
    baseUrl: stt.base_url ?? config.model.base_url,
    apiKey: config.model.api_key,
  };
}

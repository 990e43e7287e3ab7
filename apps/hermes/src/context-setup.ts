/** config.yaml's context.*, model.context_length and auxiliary.compression.model as the turn service's settings. */
import {
  CONTEXT_LENGTH_DEFAULT,
  type ContextSettings,
  type ContextSummariesPort,
  selectContextEngine,
} from '@hermes/agent';
import type { HermesConfig } from '@hermes/config';
import type { PluginRegistries } from '@hermes/plugins';

/** Throws a HermesError (CONFIG_KEY) naming the registered engines when context.engine names none. */
export function contextSettings(
  config: HermesConfig,
  registries: PluginRegistries,
  summaries: ContextSummariesPort,
): ContextSettings {
  return {
    engine: selectContextEngine(config.context.engine, registries.contextEngines),
    contextLength: config.model.context_length ?? CONTEXT_LENGTH_DEFAULT,
    contextLengthSet: config.model.context_length !== undefined,
    threshold: config.context.threshold,
    protectLastN: config.context.protect_last_n,
    summaryModel: config.auxiliary.compression.model,
    summaries,
  };
}

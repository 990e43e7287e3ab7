/** This process's turn settings: config.yaml's, with the runtime's model, context engines, summaries and skills. */
import { type TurnConfig, turnConfig } from '@hermes/agent';
import type { AgentRuntime } from './runtime.js';

/**
 * The one call `hermes -z`, `hermes chat` and `hermes gateway run` make for their turns' settings.
 * Throws a HermesError (CONFIG_KEY) naming the registered engines when context.engine names none.
 */
export function runtimeTurnConfig(rt: AgentRuntime): TurnConfig {
  return turnConfig(rt.config, {
    model: rt.model,
    context: { engines: rt.registries.contextEngines, summaries: rt.store.contextSummaries },
    skillsIndex: rt.skills.index(),
  });
}

// Model providers: profiles, the per-session model (/model) and model.fallback
export { FallbackCaller, fallbackNote, type ModelCaller, type RoutedModel, shouldFallBack } from './fallback-caller.js';
export { choiceLabel, type ModelChoice, type ParsedChoice, parseModelChoice } from './model-choice.js';
export {
  CUSTOM_PROVIDER,
  ModelProviders,
  type ModelProvidersOptions,
  type ResolvedProfile,
} from './model-providers.js';
export { type SessionModelStore, SessionModels, type TurnModel, type TurnModelSource } from './session-models.js';

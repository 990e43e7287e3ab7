// Model providers: profiles, the per-session model (/model) and model.fallback
export {
  ACCOUNT_LIMITS_TIMEOUT_MS,
  type AccountLimitsOptions,
  type AccountProfile,
  accountLimitsText,
  openRouterLimitsText,
  reportsAccountLimits,
} from './account-limits.js';
export { FallbackCaller, fallbackNote, type ModelCaller, type RoutedModel, shouldFallBack } from './fallback-caller.js';
export { choiceLabel, type ModelChoice, type ParsedChoice, parseModelChoice } from './model-choice.js';
export {
  CUSTOM_PROVIDER,
  ModelProviders,
  type ModelProvidersOptions,
  type ResolvedProfile,
} from './model-providers.js';
export { type SessionModelStore, SessionModels, type TurnModel, type TurnModelSource } from './session-models.js';

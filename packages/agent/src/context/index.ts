// The context engine: token estimates, the built-in compressor, the context window runTurn asks.

export { compressText } from './compress-text.js';
export { COMPRESSOR, compressor, compressorCut } from './compressor.js';
export { isContextLengthError } from './context-error.js';
export {
  CONTEXT_LENGTH_DEFAULT,
  CONTEXT_THRESHOLD_DEFAULT,
  type ContextRuntime,
  type ContextSettings,
  type ContextSummariesPort,
  PROTECT_LAST_N_DEFAULT,
  type StoredContextSummary,
} from './context-settings.js';
export { type ContextFitter, ContextWindow, type FitReport, type FitStep } from './context-window.js';
export {
  headEnd,
  isSafeBoundary,
  lastExchangesStart,
  nextSafeBoundary,
  safeBoundary,
  WHOLE_EXCHANGES,
} from './cut.js';
export { historyView } from './history-view.js';
export { selectContextEngine } from './select-engine.js';
export { renderMessage, SUMMARY_INSTRUCTIONS, SUMMARY_PREFIX, summarize, summaryMessage } from './summarize.js';
export { messagesTokens, messageTokens, TokenCalibration, textTokens } from './token-estimate.js';
export { fixedTokens, type TurnContext, turnContext } from './turn-context.js';

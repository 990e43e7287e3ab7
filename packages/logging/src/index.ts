// @hermes/logging: pino with redaction on every output, and the redaction helpers other packages reuse.

export type { LineWriter } from './console-sink.js';
// The logger
export {
  type CreateLoggerOptions,
  createLogger,
  DEFAULT_LOG_FILE,
  type LoggerHandle,
} from './create-logger.js';
// Levels
export { isLogLevel, LOG_LEVELS, type LogLevel, levelOfLine } from './levels.js';
export { type FaultClaimer, type GuardLogger, installProcessGuards } from './process-guards.js';
export { REDACT_PATHS } from './redact-paths.js';
// Redaction
export { createRedactor, MIN_LITERAL_SECRET_LENGTH, redactText } from './redact-text.js';
export type { LineTap } from './redacting-destination.js';
export { REDACTED, SECRET_PATTERNS, type SecretPattern } from './secret-patterns.js';

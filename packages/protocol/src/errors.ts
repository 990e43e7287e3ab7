/** Stable error codes: branch on `code`, never on message text. Each is documented in docs/errors.md. */
export const ERROR_CODES = {
  CONFIG_SYNTAX: 'HERMES_CONFIG_SYNTAX',
  CONFIG_TYPE: 'HERMES_CONFIG_TYPE',
  CONFIG_KEY: 'HERMES_CONFIG_KEY',
  MODEL_UNREACHABLE: 'HERMES_MODEL_UNREACHABLE',
  MODEL_TIMEOUT: 'HERMES_MODEL_TIMEOUT',
  MODEL_HTTP: 'HERMES_MODEL_HTTP',
  MODEL_AUTH: 'HERMES_MODEL_AUTH',
  MODEL_RATE_LIMITED: 'HERMES_MODEL_RATE_LIMITED',
  MODEL_RESPONSE: 'HERMES_MODEL_RESPONSE',
  MAX_ITERATIONS: 'HERMES_MAX_ITERATIONS',
  CONTEXT_TOO_LARGE: 'HERMES_CONTEXT_TOO_LARGE',
  INTERRUPTED: 'HERMES_INTERRUPTED',
  STATE_DB: 'HERMES_STATE_DB',
  PLUGIN_LOAD: 'HERMES_PLUGIN_LOAD',
  PLUGIN_MANIFEST: 'HERMES_PLUGIN_MANIFEST',
  HOOK_MANIFEST: 'HERMES_HOOK_MANIFEST',
  TOOL_ARGS: 'HERMES_TOOL_ARGS',
  USAGE: 'HERMES_USAGE',
  WEB_NO_PROVIDER: 'HERMES_WEB_NO_PROVIDER',
  WEB_PROVIDER: 'HERMES_WEB_PROVIDER',
  WEB_URL_REFUSED: 'HERMES_WEB_URL_REFUSED',
  WEB_FETCH: 'HERMES_WEB_FETCH',
  INTERNAL: 'HERMES_INTERNAL',
} as const;

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

export interface HermesErrorOptions {
  cause?: unknown;
  retryable?: boolean;
  /**
   * what happened, in a few words safe to show the person who asked (no URL, credential or stack):
   * `connection refused`, `no answer within 50 s`, the provider's own message (redacted, shortened)
   */
  detail?: string;
}

/** Base error: a stable code, a retry flag, and a one-line message (for the log; `detail` for people). */
export class HermesError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly detail: string | undefined;
  constructor(code: ErrorCode, message: string, options: HermesErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'HermesError';
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.detail = options.detail;
  }
}

/** Process exit codes of the contract. */
export const EXIT = {
  OK: 0,
  ERROR: 1,
  USAGE: 2,
  NOT_RUNNING: 3,
  RESTART: 75,
  CONFIG: 78,
} as const;

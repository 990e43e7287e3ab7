/**
 * The reply a person gets when a turn fails: the code and a plain sentence (see userFacingError);
 * the full detail, redacted by the logger, goes to the log under the same code.
 */
import { userFacingError } from '@hermes/agent';
import type { Logger } from '@hermes/protocol';

/** "Sorry, I could not answer: The model server could not be reached (HERMES_MODEL_UNREACHABLE)." */
export function failureReply(error: unknown, status: string, logger: Logger): string {
  const facing = userFacingError(error ?? new Error(`turn ended ${status}`));
  const detail = error instanceof Error ? error.message : String(error ?? status);
  logger.warn({ code: facing.code, status: facing.status, detail }, `turn ${status}: ${detail}`);
  return `Sorry, I could not answer: ${facing.message}`;
}

/** The user-facing message of a failed turn (API answers, gateway hook runs), logged the same way. */
export function failureMessage(error: unknown, status: string, logger: Logger): string {
  return failureReply(error, status, logger).replace(/^Sorry, I could not answer: /, '');
}

/**
 * The text a person gets when a turn fails: the code and a plain sentence (see userFacingError);
 * the full detail, redacted by the logger, goes to the log under the same code. The turn stage
 * makes it once per failed turn, for every surface.
 */
import { userFacingError } from '@hermes/agent';
import type { Logger } from '@hermes/protocol';

/** "The model server could not be reached (HERMES_MODEL_UNREACHABLE)." (logged with its detail) */
export function failureMessage(error: unknown, status: string, logger: Logger): string {
  const facing = userFacingError(error ?? new Error(`turn ended ${status}`));
  const detail = error instanceof Error ? error.message : String(error ?? status);
  logger.warn({ code: facing.code, status: facing.status, detail }, `turn ${status}: ${detail}`);
  return facing.message;
}

/** The stable code of a failed turn (`HERMES_MODEL_TIMEOUT`, ...): the one its failure message ends with. */
export function failureCode(error: unknown, status: string): string {
  return userFacingError(error ?? new Error(`turn ended ${status}`)).code;
}

/** A chat's answer to a failed turn: "Sorry, I could not answer: <the failure message>". */
export function failureReply(message: string): string {
  return `Sorry, I could not answer: ${message}`;
}

/** Maps what grammy throws from sendMessage to the gateway's typed send failure. */
import type { SendResult } from '@hermes/protocol';
import { GrammyError, HttpError } from 'grammy';
import { describeError, retryAfterMs } from './error-text.js';

export type SendFailure = Extract<SendResult, { ok: false }>;

// Telegram tells 400s apart only by their description; these patterns are the one place that reads it.
const PARSE_ERROR = /can't parse entities/i;
const TOO_LONG = /message is too long|text is too long/i;
const NOT_FOUND = /chat not found|user not found|thread not found|peer_id_invalid/i;

/** True for the 400 Telegram answers to malformed HTML: the cue for the plain-text fallback. */
export function isParseError(error: unknown): boolean {
  return error instanceof GrammyError && error.error_code === 400 && PARSE_ERROR.test(error.description);
}

/** 429 → rate_limited (with Telegram's retry_after), too long, 403 → forbidden, not found, other 4xx → bad_format, else transient (with Telegram's status). */
export function toSendFailure(error: unknown): SendFailure {
  const message = describeError(error);
  if (!(error instanceof GrammyError)) {
    // HttpError: the request may or may not have reached Telegram
    return { ok: false, error: 'transient', message: error instanceof HttpError ? message : `unexpected: ${message}` };
  }
  const code = error.error_code;
  if (code === 429) {
    const retry = retryAfterMs(error);
    return { ok: false, error: 'rate_limited', message, ...(retry === undefined ? {} : { retryAfterMs: retry }) };
  }
  if (code === 400 && TOO_LONG.test(error.description)) return { ok: false, error: 'too_long', message };
  if (code === 401 || code === 403) return { ok: false, error: 'forbidden', message };
  if (code === 404 || (code === 400 && NOT_FOUND.test(error.description))) {
    return { ok: false, error: 'not_found', message };
  }
  if (code >= 400 && code < 500) return { ok: false, error: 'bad_format', message };
  return { ok: false, error: 'transient', message, status: code };
}

/**
 * What a refused Client-Server call means for delivery (SendResult), by the server's `errcode`
 * first, then its HTTP status. A server that does not answer, or answers 5xx, is transient: the
 * gateway retries it with the same transaction id, which the server answers with the event it
 * already has instead of posting again.
 */
import type { SendResult } from '@hermes/protocol';
import { MatrixApiError } from './client.js';

export type SendFailure = Extract<SendResult, { ok: false }>;

/** how long to wait on a rate limit whose answer names no time */
const DEFAULT_RATE_RETRY_MS = 5_000;

/** A failed call as the gateway's typed send failure. */
export function toSendFailure(error: unknown): SendFailure {
  if (!(error instanceof MatrixApiError)) {
    return { ok: false, error: 'transient', message: error instanceof Error ? error.message : String(error) };
  }
  const { errcode, status, message } = error;
  if (errcode === 'M_LIMIT_EXCEEDED' || status === 429) {
    return { ok: false, error: 'rate_limited', message, retryAfterMs: error.retryAfterMs ?? DEFAULT_RATE_RETRY_MS };
  }
  if (errcode === 'M_TOO_LARGE' || status === 413) return { ok: false, error: 'too_long', message };
  if (errcode === 'M_FORBIDDEN' || errcode === 'M_UNKNOWN_TOKEN' || errcode === 'M_MISSING_TOKEN') {
    return { ok: false, error: 'forbidden', message };
  }
  if (status === 401 || status === 403) return { ok: false, error: 'forbidden', message };
  if (errcode === 'M_NOT_FOUND' || status === 404) return { ok: false, error: 'not_found', message };
  if (status === null || status >= 500) {
    return { ok: false, error: 'transient', message, ...(status === null ? {} : { status }) };
  }
  return { ok: false, error: 'bad_format', message };
}

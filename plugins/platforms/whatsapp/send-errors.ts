/**
 * What a refused Graph API call means for delivery (SendResult), by Meta's error code first (Meta's
 * advice: its codes, not the HTTP status, say what went wrong) and the status after.
 */
import type { SendResult } from '@hermes/protocol';
import { GraphError } from './graph-api.js';

export type SendFailure = Extract<SendResult, { ok: false }>;

/** throughput (130429), pair rate: too many messages to one user (131056), app and account call limits (4, 80007) */
const RATE_LIMITED = new Set([130429, 131056, 4, 80007]);
/** how long to wait when the answer says nothing: one user may get about one message every 6 s */
const DEFAULT_RETRY_MS: Readonly<Record<number, number>> = { 131056: 6_000, 4: 60_000, 80007: 60_000 };
const DEFAULT_RATE_RETRY_MS = 1_000;
/** the token (0, 190), permissions (3, 10, 200-299), policy blocks and restrictions, a number not allowed while testing */
const FORBIDDEN = new Set([0, 3, 10, 190, 368, 130497, 131030, 131031]);
/** invalid parameters, unsupported or broken media (the same request would fail again) */
const BAD_FORMAT = new Set([100, 131008, 131009, 131051, 131052, 131053]);
/** the API's own trouble: unknown, service, generic, unavailable */
const TRANSIENT = new Set([1, 2, 131000, 131016]);

/** Meta's code for messages outside the 24-hour customer service window. */
export const OUTSIDE_WINDOW_CODE = 131047;

/** The sentence a failure outside the 24-hour window is logged with. */
export const OUTSIDE_WINDOW_TEXT =
  'outside the 24-hour customer service window: WhatsApp takes only template messages until the user writes again (code 131047); this adapter sends session messages only';

/** A refused or unanswered call as the gateway's typed send failure; anything else is transient. */
export function toSendFailure(error: unknown): SendFailure {
  if (!(error instanceof GraphError)) {
    return { ok: false, error: 'transient', message: error instanceof Error ? error.message : String(error) };
  }
  const { status, code, message } = error;
  if (status === null) return { ok: false, error: 'transient', message };
  if (code === OUTSIDE_WINDOW_CODE)
    return { ok: false, error: 'forbidden', message: `${OUTSIDE_WINDOW_TEXT}: ${message}` };
  if (status === 429 || (code !== undefined && RATE_LIMITED.has(code))) {
    const fallback = (code === undefined ? undefined : DEFAULT_RETRY_MS[code]) ?? DEFAULT_RATE_RETRY_MS;
    return { ok: false, error: 'rate_limited', message, retryAfterMs: error.retryAfterMs ?? fallback };
  }
  if (code !== undefined && TRANSIENT.has(code)) return { ok: false, error: 'transient', message, status };
  if (
    status === 401 ||
    status === 403 ||
    (code !== undefined && (FORBIDDEN.has(code) || (code >= 200 && code < 300)))
  ) {
    return { ok: false, error: 'forbidden', message };
  }
  if (status === 404 || code === 131026) return { ok: false, error: 'not_found', message };
  if ((code !== undefined && BAD_FORMAT.has(code)) || (status >= 400 && status < 500)) {
    return { ok: false, error: 'bad_format', message };
  }
  return { ok: false, error: 'transient', message, status };
}

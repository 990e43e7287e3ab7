/** Maps what @slack/web-api throws from chat.postMessage to the gateway's typed send failure. */
import type { SendResult } from '@hermes/protocol';
import { webApi } from '@slack/bolt';
import { describeError } from './error-text.js';

export type SendFailure = Extract<SendResult, { ok: false }>;

// Slack tells failures apart by the `error` string of an `{ok:false}` answer; this table is the one place that reads it.
const TOO_LONG: ReadonlySet<string> = new Set(['msg_too_long', 'msg_blocks_too_long']);
const NOT_FOUND: ReadonlySet<string> = new Set([
  'channel_not_found',
  'thread_not_found',
  'user_not_found',
  'message_not_found',
]);
const FORBIDDEN: ReadonlySet<string> = new Set([
  'not_in_channel',
  'is_archived',
  'restricted_action',
  'restricted_action_read_only_channel',
  'restricted_action_non_threadable_channel',
  'restricted_action_thread_locked',
  'cannot_reply_to_message',
  'access_denied',
  'ekm_access_denied',
  'team_access_not_granted',
  'no_permission',
  'missing_scope',
  'not_authed',
  'invalid_auth',
  'account_inactive',
  'token_revoked',
  'token_expired',
  'org_login_required',
]);
const BAD_FORMAT: ReadonlySet<string> = new Set([
  'no_text',
  'invalid_blocks',
  'invalid_blocks_format',
  'invalid_attachments',
  'too_many_attachments',
  'invalid_arguments',
  'invalid_form_data',
  'invalid_metadata_format',
  'markdown_text_conflict',
]);

/**
 * 429 → rate_limited with Slack's Retry-After; platform errors by name (too long, not found,
 * forbidden, bad format); an unknown platform error, an HTTP error or a transport failure → transient.
 */
export function toSendFailure(error: unknown): SendFailure {
  const message = describeError(error);
  if (error instanceof webApi.WebAPIRateLimitedError) {
    return { ok: false, error: 'rate_limited', message, retryAfterMs: Math.max(0, error.retryAfter) * 1000 };
  }
  if (error instanceof webApi.WebAPIPlatformError) {
    const code = error.data.error;
    if (code === 'ratelimited') return { ok: false, error: 'rate_limited', message };
    if (TOO_LONG.has(code)) return { ok: false, error: 'too_long', message };
    if (NOT_FOUND.has(code)) return { ok: false, error: 'not_found', message };
    if (FORBIDDEN.has(code)) return { ok: false, error: 'forbidden', message };
    if (BAD_FORMAT.has(code)) return { ok: false, error: 'bad_format', message };
    return { ok: false, error: 'transient', message };
  }
  if (error instanceof webApi.WebAPIHTTPError) {
    if (error.statusCode === 413) return { ok: false, error: 'too_long', message };
    return { ok: false, error: 'transient', message, status: error.statusCode };
  }
  if (error instanceof webApi.WebAPIRequestError) return { ok: false, error: 'transient', message };
  return { ok: false, error: 'transient', message: `unexpected: ${message}` };
}

/** Short, log-safe descriptions of @slack/web-api errors: no token, no request body. */
import { webApi } from '@slack/bolt';

/** `platform: channel_not_found`, `rate limited: retry after 3 s`, `http 503`, `network: ...`, or the message. */
export function describeError(error: unknown): string {
  if (error instanceof webApi.WebAPIPlatformError) return `platform: ${error.data.error}`;
  if (error instanceof webApi.WebAPIRateLimitedError) return `rate limited: retry after ${error.retryAfter} s`;
  if (error instanceof webApi.WebAPIHTTPError) return `http ${error.statusCode}`;
  if (error instanceof webApi.WebAPIRequestError) return `network: ${error.original.message}`;
  return error instanceof Error ? error.message : String(error);
}

/** The platform error string (`invalid_auth`, ...) of a Web API error, when it is one. */
export function platformErrorOf(error: unknown): string | undefined {
  return error instanceof webApi.WebAPIPlatformError ? error.data.error : undefined;
}

/** Web API errors a retry cannot fix: the token is wrong, revoked or lacks rights. */
export const UNRECOVERABLE_AUTH_ERRORS: ReadonlySet<string> = new Set([
  'not_authed',
  'invalid_auth',
  'account_inactive',
  'token_revoked',
  'token_expired',
  'not_allowed_token_type',
  'user_removed_from_team',
  'team_disabled',
  'missing_scope',
]);

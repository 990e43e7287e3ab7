/** Maps what discord.js throws from a send to the gateway's typed send failure, by status and JSON error code. */
import type { SendResult } from '@hermes/protocol';
import { DiscordAPIError, HTTPError, RateLimitError } from 'discord.js';
import { describeError } from './error-text.js';

export type SendFailure = Extract<SendResult, { ok: false }>;

/** Discord JSON error codes this adapter tells apart (https://discord.com/developers/docs/topics/opcodes-and-status-codes#json). */
export const DISCORD_ERROR = {
  unknownChannel: 10003,
  unknownMessage: 10008,
  unknownWebhook: 10015,
  unknownInteraction: 10062,
  cannotMessageUser: 50007,
  missingAccess: 50001,
  missingPermissions: 50013,
  emptyMessage: 50006,
  invalidFormBody: 50035,
  alreadyAcknowledged: 40060,
} as const;

const NOT_FOUND_CODES = new Set<unknown>([
  DISCORD_ERROR.unknownChannel,
  DISCORD_ERROR.unknownMessage,
  DISCORD_ERROR.unknownWebhook,
  DISCORD_ERROR.unknownInteraction,
]);
const FORBIDDEN_CODES = new Set<unknown>([
  DISCORD_ERROR.missingAccess,
  DISCORD_ERROR.missingPermissions,
  DISCORD_ERROR.cannotMessageUser,
]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** True when a 50035 names `content` with BASE_TYPE_MAX_LENGTH: the text is over Discord's limit. */
export function isContentTooLong(error: unknown): boolean {
  if (!(error instanceof DiscordAPIError) || error.code !== DISCORD_ERROR.invalidFormBody) return false;
  const raw: unknown = error.rawError;
  const errors = isRecord(raw) && isRecord(raw.errors) ? raw.errors : undefined;
  const content = errors !== undefined && isRecord(errors.content) ? errors.content : undefined;
  const list = content !== undefined && Array.isArray(content._errors) ? content._errors : [];
  return list.some((entry: unknown) => isRecord(entry) && entry.code === 'BASE_TYPE_MAX_LENGTH');
}

/** True for the errors that mean an interaction's token can no longer answer (expired or unknown). */
export function isInteractionGone(error: unknown): boolean {
  return (
    error instanceof DiscordAPIError &&
    (error.code === DISCORD_ERROR.unknownWebhook || error.code === DISCORD_ERROR.unknownInteraction)
  );
}

/**
 * RateLimitError (a wait longer than discord.js was allowed) and 429 → rate_limited with the wait;
 * content too long → too_long; 401/403 and access codes → forbidden; unknown channel/message/webhook
 * and 404 → not_found; other 4xx → bad_format; 5xx, network errors and timeouts → transient.
 */
export function toSendFailure(error: unknown): SendFailure {
  const message = describeError(error);
  if (error instanceof RateLimitError) {
    return { ok: false, error: 'rate_limited', message, retryAfterMs: Math.max(0, Math.ceil(error.retryAfter)) };
  }
  if (error instanceof HTTPError) return { ok: false, error: 'transient', message, status: error.status };
  if (!(error instanceof DiscordAPIError)) return { ok: false, error: 'transient', message };
  const { status, code } = error;
  if (status === 429) return { ok: false, error: 'rate_limited', message };
  if (isContentTooLong(error)) return { ok: false, error: 'too_long', message };
  if (status === 401 || status === 403 || FORBIDDEN_CODES.has(code)) return { ok: false, error: 'forbidden', message };
  if (status === 404 || NOT_FOUND_CODES.has(code)) return { ok: false, error: 'not_found', message };
  if (status >= 400 && status < 500) return { ok: false, error: 'bad_format', message };
  return { ok: false, error: 'transient', message, status };
}

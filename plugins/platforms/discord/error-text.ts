/** Short, log-safe descriptions of discord.js errors: tokens (the bot's and interaction tokens) never appear. */
import { DiscordAPIError, DiscordjsError, HTTPError, RateLimitError } from 'discord.js';

/** A bot token's shape: base64 user id, timestamp, HMAC, separated by dots. */
const BOT_TOKEN = /[A-Za-z\d_-]{18,}\.[A-Za-z\d_-]{4,}\.[A-Za-z\d_-]{20,}/g;
/** Interaction tokens ride in webhook and callback URLs. */
const URL_TOKEN = /\/(webhooks|interactions)\/(\d+)\/[^/\s?]+/g;

/** Hides bot tokens, `Bot <token>` headers and interaction tokens in URLs. */
export function redactSecrets(text: string): string {
  return text
    .replace(URL_TOKEN, '/$1/$2/<token>')
    .replace(/\bBot\s+\S+/g, 'Bot <token>')
    .replace(BOT_TOKEN, '<token>');
}

function causeOf(error: Error): string {
  const cause: unknown = error.cause;
  if (cause instanceof Error) {
    const code = 'code' in cause && typeof cause.code === 'string' ? `${cause.code} ` : '';
    return ` (${code}${cause.message})`;
  }
  return '';
}

/** `404 10003: Unknown Channel` for API errors, `HTTP 502` for server errors, the message otherwise. */
export function describeError(error: unknown): string {
  if (error instanceof DiscordAPIError) return redactSecrets(`${error.status} ${error.code}: ${error.message}`);
  if (error instanceof HTTPError) return `HTTP ${error.status}: ${error.message}`;
  if (error instanceof RateLimitError) {
    return `rate limited (${error.global ? 'global' : error.scope}); retry after ${Math.ceil(error.retryAfter)} ms`;
  }
  if (error instanceof DiscordjsError) return redactSecrets(`${error.code}: ${error.message}`);
  if (error instanceof Error) return redactSecrets(`${error.message}${causeOf(error)}`);
  return redactSecrets(String(error));
}

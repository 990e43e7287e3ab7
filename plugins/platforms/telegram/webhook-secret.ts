/**
 * The webhook's secret token: `webhook_secret` from config, else one generated once (crypto
 * random, Telegram's charset) and kept in the platform's state in state.db, so it stays the same
 * across restarts. setWebhook registers it; a request without it gets 401 before its body is read.
 */
import { randomBytes } from 'node:crypto';
import type { PlatformContext } from '@hermes/protocol';
import type { TelegramSettings } from './settings.js';

/** The platform-state key the generated secret is kept under. */
export const SECRET_STATE_KEY = 'webhook_secret';
/** What Telegram accepts as `secret_token`: 1-256 characters of A-Z, a-z, 0-9, _ and -. */
export const SECRET_TOKEN_PATTERN = /^[A-Za-z0-9_-]{1,256}$/;

/** 32 random bytes, base64url: 43 characters, all in Telegram's charset. */
export function generateWebhookSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The secret to register and expect: the configured one (checked against Telegram's charset), else
 * the one in state, else a new one stored there.
 */
export function resolveWebhookSecret(
  configured: string | undefined,
  state: PlatformContext['state'],
): { secret: string; source: 'config' | 'state' | 'generated' } {
  if (configured !== undefined) {
    if (!SECRET_TOKEN_PATTERN.test(configured)) {
      throw new TypeError(
        'gateway.platforms.telegram.webhook_secret: Telegram accepts 1-256 characters of A-Z, a-z, 0-9, _ and -',
      );
    }
    return { secret: configured, source: 'config' };
  }
  const stored = state.get(SECRET_STATE_KEY);
  if (stored !== undefined && SECRET_TOKEN_PATTERN.test(stored)) return { secret: stored, source: 'state' };
  const secret = generateWebhookSecret();
  state.set(SECRET_STATE_KEY, secret);
  return { secret, source: 'generated' };
}

/**
 * Webhook mode's secret (undefined in polling mode): webhook mode is always verified, with the
 * configured secret, else one generated once and kept in state. Throws a TypeError when webhook mode
 * has neither a URL to register nor a secret, or the configured secret is not one Telegram takes.
 */
export function webhookSecretFor(settings: TelegramSettings, state: PlatformContext['state']): string | undefined {
  if (settings.mode !== 'webhook') return undefined;
  if (settings.webhookSecret === undefined && settings.webhookUrl === undefined) {
    throw new TypeError(
      'gateway.platforms.telegram: webhook mode needs webhook_url (the gateway then registers a secret it generates) ' +
        'or webhook_secret (the secret_token you registered with setWebhook)',
    );
  }
  return resolveWebhookSecret(settings.webhookSecret, state).secret;
}

/** The Telegram adapter's settings: `gateway.platforms.telegram.*` from config, with env overrides. */

export const DEFAULT_API_ROOT = 'https://api.telegram.org';
export const DEFAULT_WEBHOOK_PATH = '/telegram/webhook';
export const DEFAULT_POLL_TIMEOUT_S = 25;

export interface TelegramSettings {
  token: string;
  /** Bot API server root, no trailing slash */
  apiRoot: string;
  mode: 'polling' | 'webhook';
  /** long-poll timeout asked of getUpdates, in seconds */
  pollTimeoutS: number;
  /** the path served on the gateway's own HTTP server */
  webhookPath: string;
  /** the public URL registered with setWebhook at start; unset leaves the webhook as it is */
  webhookUrl?: string;
  /** expected in `X-Telegram-Bot-Api-Secret-Token`; unset in webhook mode: one is generated and kept in state */
  webhookSecret?: string;
}

function optionalString(settings: Readonly<Record<string, unknown>>, key: string): string | undefined {
  const value = settings[key];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new TypeError(`gateway.platforms.telegram.${key}: expected a string`);
  return value;
}

/** Reads and checks the settings; a wrong type or a missing token throws a TypeError naming the key. */
export function readTelegramSettings(
  settings: Readonly<Record<string, unknown>>,
  env: Readonly<Record<string, string | undefined>>,
): TelegramSettings {
  const token = env.TELEGRAM_BOT_TOKEN ?? '';
  if (token === '') throw new TypeError('telegram: TELEGRAM_BOT_TOKEN is not set');
  const mode = optionalString(settings, 'mode') ?? 'polling';
  if (mode !== 'polling' && mode !== 'webhook') {
    throw new TypeError(`gateway.platforms.telegram.mode: expected "polling" or "webhook", got "${mode}"`);
  }
  const timeout = settings.poll_timeout_s ?? DEFAULT_POLL_TIMEOUT_S;
  if (typeof timeout !== 'number' || !Number.isInteger(timeout) || timeout < 0 || timeout > 50) {
    throw new TypeError('gateway.platforms.telegram.poll_timeout_s: expected a whole number of seconds from 0 to 50');
  }
  const apiRoot = (env.TELEGRAM_API_ROOT || optionalString(settings, 'api_root') || DEFAULT_API_ROOT).replace(
    /\/+$/,
    '',
  );
  const webhookPath = optionalString(settings, 'webhook_path') ?? DEFAULT_WEBHOOK_PATH;
  if (!webhookPath.startsWith('/')) throw new TypeError('gateway.platforms.telegram.webhook_path: must start with "/"');
  const webhookUrl = optionalString(settings, 'webhook_url');
  const webhookSecret = optionalString(settings, 'webhook_secret');
  return {
    token,
    apiRoot,
    mode,
    pollTimeoutS: timeout,
    webhookPath,
    ...(webhookUrl === undefined ? {} : { webhookUrl }),
    ...(webhookSecret === undefined ? {} : { webhookSecret }),
  };
}

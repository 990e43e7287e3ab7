/** The Telegram adapter's settings: `gateway.platforms.telegram.*` from config, with env overrides. */
import { type RawSettings, settingsReader } from '@hermes/plugin-sdk';

export const DEFAULT_API_ROOT = 'https://api.telegram.org';
export const DEFAULT_WEBHOOK_PATH = '/telegram/webhook';
export const DEFAULT_POLL_TIMEOUT_S = 25;
/** how long a Bot API call may wait for its answer once sent (a long poll adds its own timeout) */
export const DEFAULT_API_TIMEOUT_S = 20;

export interface TelegramSettings {
  token: string;
  /** Bot API server root, no trailing slash */
  apiRoot: string;
  mode: 'polling' | 'webhook';
  /** long-poll timeout asked of getUpdates, in seconds */
  pollTimeoutS: number;
  /** seconds a Bot API call may wait for its answer once sent (getUpdates: plus its long poll) */
  apiTimeoutS: number;
  /** the path served on the gateway's own HTTP server */
  webhookPath: string;
  /** the public URL registered with setWebhook at start; unset leaves the webhook as it is */
  webhookUrl?: string;
  /** expected in `X-Telegram-Bot-Api-Secret-Token`; unset in webhook mode: one is generated and kept in state */
  webhookSecret?: string;
  /** `group_allowed_chats`: the only group chats served (ids as strings); null: every group */
  groupAllowedChats: ReadonlySet<string> | null;
}

/** `group_allowed_chats`: a list of chat ids (numbers or strings such as "-1001234567890"). */
function readChatIds(settings: RawSettings): ReadonlySet<string> | null {
  const raw = settings.group_allowed_chats;
  if (raw === undefined || raw === null) return null;
  const key = 'gateway.platforms.telegram.group_allowed_chats';
  if (!Array.isArray(raw)) throw new TypeError(`${key}: must be a list of chat ids (e.g. [-1001234567890])`);
  const ids = raw.map((id, i) => {
    const text = typeof id === 'number' && Number.isInteger(id) ? String(id) : typeof id === 'string' ? id.trim() : '';
    if (!/^-?\d+$/.test(text))
      throw new TypeError(
        `${key}[${i}]: ${JSON.stringify(id)} is not a chat id (a whole number such as -1001234567890)`,
      );
    return text;
  });
  return new Set(ids);
}

/** Reads and checks the settings; a wrong type or a missing token throws a TypeError naming the key. */
export function readTelegramSettings(
  settings: RawSettings,
  env: Readonly<Record<string, string | undefined>>,
): TelegramSettings {
  const token = env.TELEGRAM_BOT_TOKEN ?? '';
  if (token === '') throw new TypeError('telegram: TELEGRAM_BOT_TOKEN is not set');
  const read = settingsReader(settings, 'telegram');
  const mode = read.oneOf('mode', ['polling', 'webhook'], 'polling');
  const timeout = read.integer('poll_timeout_s', DEFAULT_POLL_TIMEOUT_S, { min: 0, max: 50, unit: 'seconds' });
  const apiTimeoutS = read.integer('api_timeout_s', DEFAULT_API_TIMEOUT_S, { min: 1, max: 300, unit: 'seconds' });
  const apiRoot = (env.TELEGRAM_API_ROOT || read.string('api_root') || DEFAULT_API_ROOT).replace(/\/+$/, '');
  const webhookPath = read.string('webhook_path') ?? DEFAULT_WEBHOOK_PATH;
  if (!webhookPath.startsWith('/')) throw new TypeError('gateway.platforms.telegram.webhook_path: must start with "/"');
  const webhookUrl = read.string('webhook_url');
  const webhookSecret = read.string('webhook_secret');
  const groupAllowedChats = readChatIds(settings);
  return {
    token,
    apiRoot,
    mode,
    pollTimeoutS: timeout,
    apiTimeoutS,
    webhookPath,
    groupAllowedChats,
    ...(webhookUrl === undefined ? {} : { webhookUrl }),
    ...(webhookSecret === undefined ? {} : { webhookSecret }),
  };
}

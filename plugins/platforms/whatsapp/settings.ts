/** The WhatsApp adapter's settings: `gateway.platforms.whatsapp.*` from config, credentials from the env. */
import { envValue, type RawSettings, settingsReader } from '@hermes/plugin-sdk';

export const PLATFORM = 'whatsapp';
/** the Graph API, pinned to a version (WHATSAPP_API_URL / api_url moves it) */
export const DEFAULT_API_URL = 'https://graph.facebook.com/v21.0';
export const DEFAULT_WEBHOOK_PATH = '/whatsapp/webhook';
/** Meta retries a webhook that is not answered 200 in time: answered by then even when storing is slow */
export const DEFAULT_ACK_DEADLINE_MS = 5_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export interface WhatsAppSettings {
  /** WHATSAPP_ACCESS_TOKEN: a system user's permanent token (or a temporary one while testing) */
  token: string;
  /** WHATSAPP_PHONE_NUMBER_ID: the business phone number's id (not the number itself) */
  phoneNumberId: string;
  /** WHATSAPP_APP_SECRET: the Meta app's secret, the key of X-Hub-Signature-256 */
  appSecret: string;
  /** WHATSAPP_VERIFY_TOKEN: what the webhook's GET verification must carry in hub.verify_token */
  verifyToken: string;
  /** the Graph API base with its version, no trailing slash */
  apiUrl: string;
  /** the path served on the gateway's own server (GET verification, POST events) */
  webhookPath: string;
  ackDeadlineMs: number;
  requestTimeoutMs: number;
  /** mark each message read and show the typing indicator while the answer is prepared */
  typingIndicator: boolean;
}

type Env = Readonly<Record<string, string | undefined>>;

function required(env: Env, name: string, why: string): string {
  const value = envValue(env, name);
  if (value === undefined) throw new TypeError(`whatsapp: ${name} is not set (${why})`);
  return value;
}

/** Reads and checks the settings; a wrong type or a missing credential throws a TypeError naming it. */
export function readWhatsAppSettings(settings: RawSettings, env: Env): WhatsAppSettings {
  const read = settingsReader(settings, PLATFORM);
  const token = required(env, 'WHATSAPP_ACCESS_TOKEN', 'the Graph API access token');
  const phoneNumberId = required(env, 'WHATSAPP_PHONE_NUMBER_ID', 'the business phone number id');
  if (!/^\d+$/.test(phoneNumberId)) {
    throw new TypeError('whatsapp: WHATSAPP_PHONE_NUMBER_ID must be the phone number id (digits), not the number');
  }
  const appSecret = required(env, 'WHATSAPP_APP_SECRET', 'webhook events are verified with it');
  const verifyToken = required(env, 'WHATSAPP_VERIFY_TOKEN', 'the webhook verification compares it');
  const rawUrl = read.string('api_url') ?? envValue(env, 'WHATSAPP_API_URL') ?? DEFAULT_API_URL;
  if (!/^https?:\/\/[^/]/.test(rawUrl)) {
    throw new TypeError(`${read.keyName('api_url')}: expected the http(s) URL of the Graph API (with its version)`);
  }
  const webhookPath = read.string('webhook_path') ?? DEFAULT_WEBHOOK_PATH;
  if (!webhookPath.startsWith('/')) throw new TypeError(`${read.keyName('webhook_path')}: must start with "/"`);
  return {
    token,
    phoneNumberId,
    appSecret,
    verifyToken,
    apiUrl: rawUrl.replace(/\/+$/, ''),
    webhookPath,
    ackDeadlineMs: read.integer('ack_deadline_ms', DEFAULT_ACK_DEADLINE_MS, { min: 10, max: 20_000, unit: 'ms' }),
    requestTimeoutMs: read.integer('request_timeout_ms', DEFAULT_REQUEST_TIMEOUT_MS, {
      min: 100,
      max: 600_000,
      unit: 'ms',
    }),
    typingIndicator: read.boolean('typing_indicator', true),
  };
}

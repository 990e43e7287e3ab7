/** The Slack adapter's settings: `gateway.platforms.slack.*` from config, credentials from the env. */
import { envValue, type RawSettings, settingsReader } from '@hermes/plugin-sdk';

export const DEFAULT_API_URL = 'https://slack.com/api/';
export const DEFAULT_EVENTS_PATH = '/slack/events';
/** a socket with no pong for this long is dead: closed, then replaced (pings go out every third of it) */
export const DEFAULT_LIVENESS_TIMEOUT_MS = 15_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** HTTP mode: Slack wants an answer within 3 s; answer 200 by this time even when the sink is slow */
export const DEFAULT_ACK_DEADLINE_MS = 2_500;
export const DEFAULT_MAX_FILE_BYTES = 20 * 1024 * 1024;

export interface SlackSettings {
  /** SLACK_BOT_TOKEN (xoxb-) */
  token: string;
  /** SLACK_APP_TOKEN (xapp-), Socket Mode only */
  appToken?: string;
  /** SLACK_SIGNING_SECRET, HTTP mode only */
  signingSecret?: string;
  /** Web API base URL, ending with a slash */
  apiUrl: string;
  mode: 'socket' | 'http';
  /** true: in threads the bot answered, follow-ups still need an @-mention */
  strictMention: boolean;
  /** HTTP mode: the path served on the gateway's own server */
  eventsPath: string;
  livenessTimeoutMs: number;
  requestTimeoutMs: number;
  ackDeadlineMs: number;
  /** look up display names with users.info (cached) */
  resolveUserNames: boolean;
  /** attachments larger than this are not downloaded (path null) */
  maxFileBytes: number;
  /** let Slack unfurl links and media in the bot's answers */
  unfurlLinks: boolean;
  /** the lowest level of the Slack SDKs' own lines passed to the gateway's log */
  sdkLogLevel: SdkLogLevel;
}

export type SdkLogLevel = 'debug' | 'info' | 'warn' | 'error';
const SDK_LOG_LEVELS: readonly SdkLogLevel[] = ['debug', 'info', 'warn', 'error'];

type Env = Readonly<Record<string, string | undefined>>;

/** Reads and checks the settings; a wrong type or a missing credential throws a TypeError naming the key. */
export function readSlackSettings(settings: RawSettings, env: Env): SlackSettings {
  const read = settingsReader(settings, 'slack');
  const token = envValue(env, 'SLACK_BOT_TOKEN');
  if (token === undefined) throw new TypeError('slack: SLACK_BOT_TOKEN is not set');
  const appToken = envValue(env, 'SLACK_APP_TOKEN');
  const signingSecret = envValue(env, 'SLACK_SIGNING_SECRET');
  const mode = read.oneOf('mode', ['socket', 'http'], appToken !== undefined ? 'socket' : 'http');
  if (mode === 'socket' && appToken === undefined) throw new TypeError('slack: Socket Mode needs SLACK_APP_TOKEN');
  if (mode === 'http' && signingSecret === undefined) {
    throw new TypeError('slack: HTTP events mode needs SLACK_SIGNING_SECRET');
  }
  const rawUrl = read.string('api_url') ?? envValue(env, 'SLACK_API_URL') ?? DEFAULT_API_URL;
  if (!/^https?:\/\//.test(rawUrl)) throw new TypeError('gateway.platforms.slack.api_url: expected an http(s) URL');
  const eventsPath = read.string('events_path') ?? DEFAULT_EVENTS_PATH;
  if (!eventsPath.startsWith('/')) throw new TypeError('gateway.platforms.slack.events_path: must start with "/"');
  return {
    token,
    ...(appToken === undefined ? {} : { appToken }),
    ...(signingSecret === undefined ? {} : { signingSecret }),
    apiUrl: rawUrl.endsWith('/') ? rawUrl : `${rawUrl}/`,
    mode,
    strictMention: read.boolean('strict_mention', false),
    eventsPath,
    livenessTimeoutMs: read.integer('liveness_timeout_ms', DEFAULT_LIVENESS_TIMEOUT_MS, { min: 100, max: 600_000 }),
    requestTimeoutMs: read.integer('request_timeout_ms', DEFAULT_REQUEST_TIMEOUT_MS, { min: 100, max: 600_000 }),
    ackDeadlineMs: read.integer('ack_deadline_ms', DEFAULT_ACK_DEADLINE_MS, { min: 10, max: 2_900 }),
    resolveUserNames: read.boolean('resolve_user_names', true),
    maxFileBytes: read.integer('max_file_bytes', DEFAULT_MAX_FILE_BYTES, { min: 0, max: 1024 * 1024 * 1024 }),
    unfurlLinks: read.boolean('unfurl_links', false),
    sdkLogLevel: read.oneOf('sdk_log_level', SDK_LOG_LEVELS, 'warn'),
  };
}

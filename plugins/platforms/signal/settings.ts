/** The Signal adapter's settings: `gateway.platforms.signal.*` from config, the daemon and account from the env. */
import { envValue, type RawSettings, settingsReader } from '@hermes/plugin-sdk';

export const PLATFORM = 'signal';
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export interface SignalSettings {
  /** SIGNAL_HTTP_URL (or `http_url`): signal-cli's `daemon --http` base, no trailing slash */
  httpUrl: string;
  /** SIGNAL_ACCOUNT: the bot's number (E.164, `+15551230000`) as registered or linked in signal-cli */
  account: string;
  /** the bot account's UUID, when known in advance (`account_uuid`); else asked of the daemon */
  accountUuid: string | undefined;
  requestTimeoutMs: number;
  /** show "typing…" while an answer is prepared */
  typingIndicator: boolean;
}

type Env = Readonly<Record<string, string | undefined>>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Reads and checks the settings; a wrong value or a missing variable throws a TypeError naming it. */
export function readSignalSettings(settings: RawSettings, env: Env): SignalSettings {
  const read = settingsReader(settings, PLATFORM);
  const httpUrl = read.string('http_url') ?? envValue(env, 'SIGNAL_HTTP_URL');
  if (httpUrl === undefined) {
    throw new TypeError("signal: SIGNAL_HTTP_URL is not set (signal-cli's daemon --http URL, http://127.0.0.1:8080)");
  }
  if (!/^https?:\/\/[^/]/.test(httpUrl)) {
    throw new TypeError(
      `signal: SIGNAL_HTTP_URL / ${read.keyName('http_url')}: expected an http(s) URL, got "${httpUrl}"`,
    );
  }
  const account = envValue(env, 'SIGNAL_ACCOUNT');
  if (account === undefined) throw new TypeError("signal: SIGNAL_ACCOUNT is not set (the bot's number, +15551230000)");
  if (!/^\+\d{6,15}$/.test(account)) {
    throw new TypeError('signal: SIGNAL_ACCOUNT must be the number in international form, "+" and digits');
  }
  const accountUuid = read.string('account_uuid');
  if (accountUuid !== undefined && !UUID.test(accountUuid)) {
    throw new TypeError(`${read.keyName('account_uuid')}: expected the account's UUID (ACI)`);
  }
  return {
    httpUrl: httpUrl.replace(/\/+$/, ''),
    account,
    accountUuid: accountUuid?.toLowerCase(),
    requestTimeoutMs: read.integer('request_timeout_ms', DEFAULT_REQUEST_TIMEOUT_MS, {
      min: 100,
      max: 600_000,
      unit: 'ms',
    }),
    typingIndicator: read.boolean('typing_indicator', true),
  };
}

/** The Matrix adapter's settings: `gateway.platforms.matrix.*` from config, the homeserver and token from the env. */
import { envValue, type RawSettings, settingsReader } from '@hermes/plugin-sdk';

export const PLATFORM = 'matrix';
export const DEFAULT_SYNC_TIMEOUT_MS = 30_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export interface MatrixSettings {
  /** MATRIX_HOMESERVER_URL (or `homeserver_url`): the Client-Server API base, no trailing slash */
  homeserverUrl: string;
  /** MATRIX_ACCESS_TOKEN: the bot account's access token */
  accessToken: string;
  /** MATRIX_USER_ID: the bot's user id when given (checked against whoami at start), else whoami's */
  userId: string | undefined;
  /** how long one /sync long poll waits for events on the server */
  syncTimeoutMs: number;
  /** how long any other call may wait for its answer */
  requestTimeoutMs: number;
  /** join the rooms the bot is invited to */
  autoJoin: boolean;
  /** show "typing…" while an answer is prepared */
  typingIndicator: boolean;
}

type Env = Readonly<Record<string, string | undefined>>;

const USER_ID = /^@[^:\s]+:[^\s]+$/;

/** Reads and checks the settings; a wrong value or a missing variable throws a TypeError naming it. */
export function readMatrixSettings(settings: RawSettings, env: Env): MatrixSettings {
  const read = settingsReader(settings, PLATFORM);
  const homeserverUrl = read.string('homeserver_url') ?? envValue(env, 'MATRIX_HOMESERVER_URL');
  if (homeserverUrl === undefined) {
    throw new TypeError('matrix: MATRIX_HOMESERVER_URL is not set (the homeserver, https://matrix.example.org)');
  }
  if (!/^https?:\/\/[^/]/.test(homeserverUrl)) {
    throw new TypeError(
      `matrix: MATRIX_HOMESERVER_URL / ${read.keyName('homeserver_url')}: expected an http(s) URL, got "${homeserverUrl}"`,
    );
  }
  const accessToken = envValue(env, 'MATRIX_ACCESS_TOKEN');
  if (accessToken === undefined)
    throw new TypeError("matrix: MATRIX_ACCESS_TOKEN is not set (the bot account's token)");
  const userId = envValue(env, 'MATRIX_USER_ID');
  if (userId !== undefined && !USER_ID.test(userId)) {
    throw new TypeError(`matrix: MATRIX_USER_ID must be a full user id, "@name:server", got "${userId}"`);
  }
  return {
    homeserverUrl: homeserverUrl.replace(/\/+$/, ''),
    accessToken,
    userId,
    syncTimeoutMs: read.integer('sync_timeout_ms', DEFAULT_SYNC_TIMEOUT_MS, { min: 1_000, max: 300_000, unit: 'ms' }),
    requestTimeoutMs: read.integer('request_timeout_ms', DEFAULT_REQUEST_TIMEOUT_MS, {
      min: 100,
      max: 600_000,
      unit: 'ms',
    }),
    autoJoin: read.boolean('auto_join', true),
    typingIndicator: read.boolean('typing_indicator', true),
  };
}

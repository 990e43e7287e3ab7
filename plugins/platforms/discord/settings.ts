/** The Discord adapter's settings: `gateway.platforms.discord.*` from config, with env fallbacks. */
import { type RawSettings, settingsReader } from '@hermes/plugin-sdk';

export const DEFAULT_API_BASE = 'https://discord.com/api';
/** attachments larger than this are not downloaded (the event keeps them with `path: null`) */
export const DEFAULT_ATTACHMENT_MAX_BYTES = 25 * 1024 * 1024;
/** a 429 asking to wait longer than this is handed to the gateway as rate_limited instead of waited out */
export const DEFAULT_RATE_LIMIT_WAIT_MAX_MS = 10_000;
/** messages written while the gateway was down are fetched and answered when younger than this */
export const DEFAULT_CATCH_UP_HOURS = 24;
/** Discord's global limit for a bot; raise it only when Discord raised it for the bot */
export const DEFAULT_GLOBAL_REQUESTS_PER_SECOND = 50;

export interface DiscordSettings {
  token: string;
  /** REST base without the version, no trailing slash: `https://discord.com/api` */
  apiBase: string;
  /** register the gateway's commands as global slash commands when connected */
  slashCommands: boolean;
  attachmentMaxBytes: number;
  rateLimitWaitMaxMs: number;
  globalRequestsPerSecond: number;
  /** send replies with link previews (embeds) suppressed */
  suppressEmbeds: boolean;
  /** at start, fetch messages written in known channels while the gateway was down, up to this old; 0: off */
  catchUpHours: number;
}

/** Every key `gateway.platforms.discord` may hold (`enabled` is the gateway's). */
export const DISCORD_SETTING_KEYS = [
  'enabled',
  'api_base',
  'slash_commands',
  'attachment_max_bytes',
  'rate_limit_wait_max_ms',
  'global_requests_per_second',
  'suppress_embeds',
  'catch_up_hours',
  'send_rate_limit',
] as const;

function apiBaseOf(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`gateway.platforms.discord.api_base: not a URL: ${value}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError('gateway.platforms.discord.api_base: expected an http(s) URL');
  }
  return value.replace(/\/+$/, '');
}

/** Reads and checks the settings; a wrong type or a missing token throws a TypeError naming the key. */
export function readDiscordSettings(
  settings: RawSettings,
  env: Readonly<Record<string, string | undefined>>,
): DiscordSettings {
  const token = (env.DISCORD_BOT_TOKEN ?? '').trim();
  if (token === '') throw new TypeError('discord: DISCORD_BOT_TOKEN is not set');
  const read = settingsReader(settings, 'discord');
  const apiBase = read.string('api_base') ?? (env.DISCORD_API_BASE?.trim() || DEFAULT_API_BASE);
  const atLeastOne = { min: 1 };
  return {
    token,
    apiBase: apiBaseOf(apiBase),
    slashCommands: read.boolean('slash_commands', true),
    attachmentMaxBytes: read.integer('attachment_max_bytes', DEFAULT_ATTACHMENT_MAX_BYTES, atLeastOne),
    rateLimitWaitMaxMs: read.integer('rate_limit_wait_max_ms', DEFAULT_RATE_LIMIT_WAIT_MAX_MS, atLeastOne),
    globalRequestsPerSecond: read.integer('global_requests_per_second', DEFAULT_GLOBAL_REQUESTS_PER_SECOND, atLeastOne),
    suppressEmbeds: read.boolean('suppress_embeds', true),
    catchUpHours: read.integer('catch_up_hours', DEFAULT_CATCH_UP_HOURS, { min: 0 }),
  };
}

/** The keys of `settings` this adapter does not know (warned about, never fatal). */
export function unknownSettingKeys(settings: RawSettings): string[] {
  const known: readonly string[] = DISCORD_SETTING_KEYS;
  return Object.keys(settings).filter((key) => !known.includes(key));
}

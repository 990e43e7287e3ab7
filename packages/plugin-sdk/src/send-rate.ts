/**
 * Platform send limits and where they apply: a platform API reached on a loopback address (a test
 * fake, a benchmark) gets no client-side pacing unless the plugin's `send_rate_limit` setting turns
 * it on (a local Telegram Bot API server still answers Telegram's 429s, which delivery waits out).
 */
import { isLoopbackHost, type PlatformCapabilities, type SendRate } from '@hermes/protocol';

/** True when `url`'s host is a loopback name or address (127.0.0.0/8, ::1, localhost). */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return false;
  }
  return isLoopbackHost(host);
}

/**
 * The adapter's capabilities: the declared ones with their `sendRate`, or without it when the
 * setting says `false`, or when unset and the API is on a loopback address.
 */
export function capabilitiesFor(
  declared: PlatformCapabilities,
  apiUrl: string,
  sendRateLimit: boolean | undefined,
): PlatformCapabilities {
  const paced = sendRateLimit ?? !isLoopbackUrl(apiUrl);
  if (paced || declared.sendRate === undefined) return declared;
  const { sendRate: _dropped, ...rest } = declared;
  return rest;
}

/** Reads the optional boolean `send_rate_limit` of a platform's settings; a wrong type throws naming the key. */
export function readSendRateLimit(settings: Readonly<Record<string, unknown>>, platform: string): boolean | undefined {
  const value = settings.send_rate_limit;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean')
    throw new TypeError(`gateway.platforms.${platform}.send_rate_limit: expected true or false`);
  return value;
}

/**
 * The send rate that lets `burst` messages go at once and never more than `limit` in any `perMs`
 * window: delivery's pacer lets burst - 1 + count through per window, so count = limit - burst + 1.
 */
export function rateWithin(limit: number, perMs: number, burst: number): SendRate {
  if (!Number.isInteger(limit) || !Number.isInteger(burst) || burst < 1 || limit < burst || !(perMs > 0)) {
    throw new RangeError(`rateWithin(${limit}, ${perMs}, ${burst}): expected whole numbers with 1 <= burst <= limit`);
  }
  return { count: limit - burst + 1, perMs, burst };
}

/**
 * What the Telegram adapter can do, importable without grammy: the plugin registers it and the
 * gateway plans around it before the adapter (and its SDK) is loaded.
 */
import { rateWithin } from '@hermes/plugin-sdk';
import type { PlatformCapabilities } from '@hermes/protocol';

/** Bot API limits: photos up to 10 MB, other files up to 50 MB. */
export const TELEGRAM_MAX_PHOTO_BYTES = 10 * 1024 * 1024;
export const TELEGRAM_MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

export const TELEGRAM_CAPABILITIES: PlatformCapabilities = {
  maxMessageLength: 4096,
  formatting: 'html',
  editing: true,
  typing: true,
  threads: true,
  reactions: true,
  // Bot API FAQ: about 1 message a second in one chat, short bursts tolerated (3: a three-chunk
  // answer goes at once); 30 a second across chats (5 at once)
  sendRate: { perChat: { count: 1, perMs: 1_000, burst: 3 }, global: rateWithin(30, 1_000, 5) },
  media: { maxUploadBytes: TELEGRAM_MAX_UPLOAD_BYTES, maxPhotoBytes: TELEGRAM_MAX_PHOTO_BYTES },
};

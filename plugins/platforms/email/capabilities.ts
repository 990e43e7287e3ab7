/**
 * What the email adapter can do, importable without imapflow, nodemailer or mailparser: the plugin
 * registers it and the gateway plans around it before the adapter (and its libraries) is loaded.
 */
import type { PlatformCapabilities } from '@hermes/protocol';

/**
 * A mail takes far more than a chat message; 20,000 characters keeps one answer one mail in all
 * but the longest cases (a longer one continues in the next mail of the thread).
 */
export const EMAIL_MAX_MESSAGE_LENGTH = 20_000;

/**
 * Most providers refuse a mail over 25 MB, counted after base64 (4/3 of the bytes): 18 MiB of
 * file is what fits.
 */
export const EMAIL_MAX_UPLOAD_BYTES = 18 * 1024 * 1024;

/**
 * Plain text (no HTML part is sent), no edits, no typing, no reactions. `threads` is false: a mail
 * thread is its own chat (the chat id carries the thread), so every thread is its own session.
 */
export const EMAIL_CAPABILITIES: PlatformCapabilities = {
  maxMessageLength: EMAIL_MAX_MESSAGE_LENGTH,
  formatting: 'plain',
  editing: false,
  typing: false,
  threads: false,
  reactions: false,
  media: { maxUploadBytes: EMAIL_MAX_UPLOAD_BYTES, maxPhotoBytes: EMAIL_MAX_UPLOAD_BYTES },
};

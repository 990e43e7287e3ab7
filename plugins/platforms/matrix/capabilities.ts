/**
 * What the Matrix adapter can do (and says), importable without the adapter: the plugin registers
 * it and the gateway plans around it before the adapter is loaded.
 */
import type { PlatformCapabilities } from '@hermes/protocol';

/**
 * A Matrix event may be 65,536 bytes in all; a message carries its text twice (body and HTML), an
 * edit three times (the fallback body and the new content's two), so 4,000 characters a message
 * keeps even an edit of non-Latin text within the limit.
 */
export const MATRIX_MAX_MESSAGE_LENGTH = 4_000;
/** Synapse's default `max_upload_size` (50M); a server's own limit refuses a larger file (M_TOO_LARGE) */
export const MATRIX_MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

export const MATRIX_CAPABILITIES: PlatformCapabilities = {
  maxMessageLength: MATRIX_MAX_MESSAGE_LENGTH,
  formatting: 'html',
  editing: true,
  typing: true,
  threads: true,
  reactions: true,
  media: { maxUploadBytes: MATRIX_MAX_UPLOAD_BYTES, maxPhotoBytes: MATRIX_MAX_UPLOAD_BYTES },
};

/** What the bot says, once, in a room whose messages are end-to-end encrypted. */
export const E2EE_NOTICE =
  "This room is end-to-end encrypted, and I can't read encrypted messages, so I won't answer here. " +
  'Write to me in a room without encryption.';

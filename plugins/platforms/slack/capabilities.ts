/**
 * What the Slack adapter can do, importable without Bolt: the plugin registers it and the gateway
 * plans around it before the adapter (and its SDK) is loaded.
 */
import type { PlatformCapabilities } from '@hermes/protocol';

/** Slack's limit for one file (1 GB). */
export const SLACK_MAX_UPLOAD_BYTES = 1024 * 1024 * 1024;

/**
 * 4,000 characters: Slack's own guidance for the `text` of one message (it truncates only past
 * 40,000, but long posts collapse behind "Show more" and read badly); longer answers are split.
 * No typing indicator: Slack offers bots none outside the assistant-thread APIs.
 */
export const SLACK_CAPABILITIES: PlatformCapabilities = {
  maxMessageLength: 4_000,
  formatting: 'mrkdwn',
  editing: true,
  typing: false,
  threads: true,
  reactions: true,
  // chat.postMessage ("special" tier): 1 message a second per channel, short bursts allowed (3)
  sendRate: { perChat: { count: 1, perMs: 1_000, burst: 3 } },
  media: { maxUploadBytes: SLACK_MAX_UPLOAD_BYTES },
};

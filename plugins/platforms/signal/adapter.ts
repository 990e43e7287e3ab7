/**
 * The Signal PlatformAdapter on signal-cli's JSON-RPC daemon (`signal-cli -a +NUMBER daemon --http
 * 127.0.0.1:8080`): events arrive on its Server-Sent Events stream (events.ts, the one owner of
 * reconnection), everything the bot does goes through `POST /api/v1/rpc`. DMs and groups; no
 * buttons, so approvals are asked in text (`/approve`, `/deny`) by the gateway.
 */
import { type AdapterDeps, createPlatformKit } from '@hermes/plugin-sdk';
import type { PlatformAdapter, PlatformCapabilities, PlatformContext } from '@hermes/protocol';
import { downloadAttachment } from './download.js';
import type { PendingSignalFile } from './envelope.js';
import { runEventLoop } from './events.js';
import { markdownToStyled } from './format/markdown-to-styled.js';
import { resolveIdentity } from './identity.js';
import { createRpcClient } from './rpc.js';
import { type Sender, sendMedia, sendReaction, sendText, sendTyping } from './send.js';
import { PLATFORM, readSignalSettings } from './settings.js';

/** Signal's most a message body takes is far more; 4,000 keeps an answer readable in parts. */
export const SIGNAL_MAX_MESSAGE_LENGTH = 4_000;
/** Signal's attachment limit (100 MiB); the bytes travel base64 in the JSON-RPC body */
export const SIGNAL_MAX_UPLOAD_BYTES = 100 * 1024 * 1024;

export const SIGNAL_CAPABILITIES: PlatformCapabilities = {
  maxMessageLength: SIGNAL_MAX_MESSAGE_LENGTH,
  // format() keeps the Markdown; send() writes it as Signal text with text styles (bodyRanges)
  formatting: 'markdown',
  editing: false,
  typing: true,
  threads: false,
  reactions: true,
  media: { maxUploadBytes: SIGNAL_MAX_UPLOAD_BYTES, maxPhotoBytes: SIGNAL_MAX_UPLOAD_BYTES },
};

/** the typing indicator lasts 15 s on Signal: not sent again to the same chat sooner than this */
const TYPING_REFRESH_MS = 10_000;

const listed = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);

/** Creates the adapter: settings checked (a missing variable throws); nothing is called before start(). */
export function createSignalAdapter(context: PlatformContext, deps: AdapterDeps = {}): PlatformAdapter {
  const settings = readSignalSettings(context.settings, context.env);
  const logger = context.logger;
  const kit = createPlatformKit(context, deps, {
    platform: PLATFORM,
    capabilities: SIGNAL_CAPABILITIES,
    apiUrl: settings.httpUrl,
    holdsConnection: true,
  });
  const { status, inFlight, now } = kit;
  const rpc = createRpcClient({
    httpUrl: settings.httpUrl,
    account: settings.account,
    timeoutMs: settings.requestTimeoutMs,
  });
  const sender: Sender = { rpc, account: settings.account, logger };
  const attachments = kit.attachmentFetcher((file: PendingSignalFile, signal) =>
    downloadAttachment(file, { rpc, cacheDir: context.cacheDir, maxBytes: context.mediaMaxBytes, signal }),
  );
  // a UUID named in an allowlist is the user's id; else the number is (pairing approves either)
  const allowlist = new Set([
    ...listed(context.env.SIGNAL_ALLOWED_USERS),
    ...listed(context.env.GATEWAY_ALLOWED_USERS),
  ]);
  const typedAt = new Map<string, number>();

  return kit.adapter({
    intake: (sink, signal) =>
      runEventLoop({
        httpUrl: settings.httpUrl,
        account: settings.account,
        sink,
        logger,
        status,
        attachments,
        state: context.state,
        identity: (s) => resolveIdentity(rpc, settings.account, settings.accountUuid, logger, s),
        allowlisted: (uuid) => allowlist.has(uuid),
        onMessage: (chatId) => typedAt.delete(chatId),
        describe: kit.describe,
        now,
        sleep: kit.sleep,
        random: kit.random,
        signal,
      }),

    stopped: () => typedAt.clear(),

    send: (message) =>
      inFlight.track(
        sendText(sender, message).then((result) => {
          typedAt.delete(message.chatId);
          return result;
        }),
      ),
    sendMedia: (media) => inFlight.track(sendMedia(sender, media)),
    react: (reaction) => inFlight.track(sendReaction(sender, reaction)),

    async sendTyping(chatId) {
      const last = typedAt.get(chatId);
      if (!settings.typingIndicator || (last !== undefined && now() - last < TYPING_REFRESH_MS)) return;
      typedAt.set(chatId, now());
      if (typedAt.size > 10_000) typedAt.delete(typedAt.keys().next().value as string);
      try {
        await sendTyping(sender, chatId);
      } catch (error) {
        logger.debug({ error: kit.describe(error), chatId }, 'signal: typing indicator failed');
      }
    },

    // Markdown that shows as nothing (an empty fence, bare heading marks): '' so it is sent as written
    format: (markdown) => (markdownToStyled(markdown).text.trim() === '' ? '' : markdown),
  });
}

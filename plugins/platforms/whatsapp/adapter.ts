/**
 * The WhatsApp PlatformAdapter on the WhatsApp Business Cloud API: events arrive as signed webhooks
 * on the gateway's own server (no connection to hold: every gateway instance serves them), answers
 * go out through the Graph API with the global fetch. Direct chats only: the Cloud API's chats are
 * between one user and the business number.
 */
import { type AdapterDeps, createPlatformKit, rateWithin } from '@hermes/plugin-sdk';
import type { InboundSink, PlatformAdapter, PlatformCapabilities, PlatformContext } from '@hermes/protocol';
import { askApproval, sendButtons } from './approvals.js';
import { deliverContents, recentKeys } from './deliver.js';
import { downloadMedia } from './download-media.js';
import { markdownToWhatsApp } from './format/markdown-to-whatsapp.js';
import { createGraphClient } from './graph-api.js';
import type { PendingMedia } from './normalize.js';
import { sendMedia, WHATSAPP_MAX_PHOTO_BYTES, WHATSAPP_MAX_UPLOAD_BYTES } from './send-media.js';
import { markReadTyping, type Sender, sendReaction, sendText } from './send-message.js';
import { PLATFORM, readWhatsAppSettings } from './settings.js';
import { eventsHandler, signaturePresent, verificationHandler } from './webhook.js';

/**
 * 4,096 characters: the most a text message's body takes. No editing (the Cloud API cannot change a
 * sent message); reactions are any emoji, one per message, a new one replacing the bot's last.
 */
export const WHATSAPP_CAPABILITIES: PlatformCapabilities = {
  maxMessageLength: 4_096,
  formatting: 'markdown',
  editing: false,
  typing: true,
  threads: false,
  reactions: true,
  // pair rate: about one message every 6 s to one user, with bursts (an answer in several parts) allowed
  sendRate: { perChat: rateWithin(10, 60_000, 5) },
  media: { maxUploadBytes: WHATSAPP_MAX_UPLOAD_BYTES, maxPhotoBytes: WHATSAPP_MAX_PHOTO_BYTES },
};

/** the typing indicator lasts 25 s: it is not asked again for the same chat sooner than this */
const TYPING_REFRESH_MS = 20_000;
/** chats whose newest message id is kept for the typing indicator */
const MAX_TRACKED_CHATS = 10_000;

/** Creates the adapter: settings checked (a missing credential throws) and the webhook routes added. */
export function createWhatsAppAdapter(context: PlatformContext, deps: AdapterDeps = {}): PlatformAdapter {
  const settings = readWhatsAppSettings(context.settings, context.env);
  const logger = context.logger;
  const kit = createPlatformKit(context, deps, {
    platform: PLATFORM,
    capabilities: WHATSAPP_CAPABILITIES,
    apiUrl: settings.apiUrl,
    describe: (error) => (error instanceof Error ? error.message : String(error)).split(settings.token).join('<token>'),
  });
  const { now, status, inFlight } = kit;
  const graph = createGraphClient({
    apiUrl: settings.apiUrl,
    token: settings.token,
    timeoutMs: settings.requestTimeoutMs,
  });
  const sender: Sender = { graph, phoneNumberId: settings.phoneNumberId };
  const attachments = kit.attachmentFetcher((file: PendingMedia, signal) =>
    downloadMedia(file, { graph, cacheDir: context.cacheDir, maxBytes: context.mediaMaxBytes, signal }),
  );
  const presses = recentKeys(1_000);
  /** chat → its newest message id, and when "typing" was last shown there */
  const newest = new Map<string, { messageId: string; typingAt: number }>();
  let sink: InboundSink | undefined;

  const onMessage = (chatId: string, messageId: string): void => {
    newest.delete(chatId);
    newest.set(chatId, { messageId, typingAt: 0 });
    if (newest.size > MAX_TRACKED_CHATS) newest.delete(newest.keys().next().value as string);
  };

  const webhook = {
    appSecret: settings.appSecret,
    verifyToken: settings.verifyToken,
    logger,
    ackDeadlineMs: settings.ackDeadlineMs,
    deliver: () => {
      const signal = kit.signal;
      const target = sink;
      if (signal === undefined || signal.aborted || target === undefined) return null;
      const delivery = { sink: target, logger, attachments, sender, now, presses, onMessage };
      return (contents: Parameters<typeof deliverContents>[0]) =>
        inFlight.track(deliverContents(contents, delivery, signal));
    },
  };
  // routes are added at creation: the gateway takes them before its server starts (503 until start)
  context.route('GET', settings.webhookPath, verificationHandler(webhook));
  context.route('POST', settings.webhookPath, eventsHandler(webhook), { verify: signaturePresent(logger) });

  return kit.adapter({
    // nothing to connect: the webhook is served from start() on; stop() ends its deliveries
    intake: async (target) => {
      sink = target;
      status.set('connected');
    },

    stopped: () => {
      sink = undefined;
    },

    send: (message) => inFlight.track(sendText(sender, message)),
    sendMedia: (media) => inFlight.track(sendMedia(sender, media)),
    react: (reaction) => inFlight.track(sendReaction(sender, reaction)),
    askApproval: (prompt) => inFlight.track(askApproval(sender, prompt)),
    sendButtons: (message) => inFlight.track(sendButtons(sender, message)),

    async sendTyping(chatId) {
      const last = newest.get(chatId);
      if (!settings.typingIndicator || last === undefined || now() - last.typingAt < TYPING_REFRESH_MS) return;
      last.typingAt = now();
      try {
        await markReadTyping(sender, last.messageId);
      } catch (error) {
        logger.debug({ error: kit.describe(error), chatId }, 'whatsapp: typing indicator failed');
      }
    },

    format: markdownToWhatsApp,
  });
}

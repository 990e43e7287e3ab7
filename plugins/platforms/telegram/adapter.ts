/** The Telegram PlatformAdapter: one grammy Bot, polling or webhook intake, HTML sends. */
import { type AdapterDeps, createPlatformKit } from '@hermes/plugin-sdk';
import type { InboundSink, PlatformAdapter, PlatformContext } from '@hermes/protocol';
import { Bot } from 'grammy';
import type { Update } from 'grammy/types';
import { createAlbumCollector } from './album.js';
import { askApproval, closeApproval, handleCallbackQuery, sendButtons } from './approvals.js';
import type { PendingFile } from './attachments.js';
import type { BotIdentity } from './bot-identity.js';
import { TELEGRAM_CAPABILITIES } from './capabilities.js';
import { deliverUpdate } from './deliver-update.js';
import { downloadFile } from './download-file.js';
import { editMessage, setReaction } from './edit-message.js';
import { describeError } from './error-text.js';
import { markdownToTelegramHtml } from './format/markdown-to-html.js';
import { grammySignal } from './grammy-signal.js';
import { grammyFetchWithin } from './json-fetch.js';
import { telegramThreadId } from './message-ids.js';
import { PLATFORM } from './normalize.js';
import { ALLOWED_UPDATES, runPolling } from './polling.js';
import { retryUntilDone } from './retry.js';
import { sendMedia } from './send-media.js';
import { sendMessage } from './send-message.js';
import { readTelegramSettings } from './settings.js';
import { createWebhookHandler, webhookSecretCheck, webhookVerifier } from './webhook.js';
import { webhookSecretFor } from './webhook-secret.js';

export { TELEGRAM_CAPABILITIES } from './capabilities.js';

/**
 * Creates the adapter: settings are checked here (a wrong type throws) and, in webhook mode, the
 * route is added; nothing touches the network before start(). The plugin's factory (factory.ts)
 * creates it when the platform starts, so grammy is not loaded before.
 */
export function createTelegramAdapter(context: PlatformContext, deps: AdapterDeps = {}): PlatformAdapter {
  const settings = readTelegramSettings(context.settings, context.env);
  const logger = context.logger;
  const webhookSecret = webhookSecretFor(settings, context.state);
  const kit = createPlatformKit(context, deps, {
    platform: PLATFORM,
    capabilities: TELEGRAM_CAPABILITIES,
    holdsConnection: settings.mode !== 'webhook',
    apiUrl: settings.apiRoot,
    errorMessage: 'connection error; retrying with backoff',
    describe: describeError,
  });
  const { now, sleep, random, status, inFlight } = kit;
  const bot = new Bot(settings.token, {
    client: { apiRoot: settings.apiRoot, fetch: grammyFetchWithin(settings.apiTimeoutS * 1000) },
  });
  const download = { api: bot.api, apiRoot: settings.apiRoot, token: settings.token, cacheDir: context.cacheDir };
  const attachments = kit.attachmentFetcher((file: PendingFile, signal) => downloadFile(file, { ...download, signal }));
  const collectAlbum = createAlbumCollector();
  let identity: BotIdentity | undefined;
  let sink: InboundSink | undefined;

  const init = async (signal: AbortSignal): Promise<void> => {
    // getMe ourselves, not bot.init(): grammy's init retries network errors on its own, silently and
    // forever, so the state would stay `connecting`; retryUntilDone retries and says `error` with why
    const me = await bot.api.getMe(grammySignal(signal));
    bot.botInfo = me;
    identity = { id: me.id, username: me.username };
  };

  const deliver = (
    update: Update | readonly Update[],
    signal: AbortSignal,
    state?: Record<string, string>,
  ): Promise<void> => {
    if (sink === undefined || identity === undefined) return Promise.reject(new Error('telegram: not started'));
    const target = sink;
    const onCallbackQuery = (query: NonNullable<Update['callback_query']>) =>
      handleCallbackQuery(query, { api: bot.api, sink: target, logger });
    const groupAllowedChats = settings.groupAllowedChats;
    const options = { sink, bot: identity, logger, attachments, now, onCallbackQuery, groupAllowedChats };
    return deliverUpdate(update, options, signal, state);
  };

  /** Webhook mode: getMe, then setWebhook when a public URL is configured; retried until it works. */
  const prepareWebhook = async (signal: AbortSignal): Promise<void> => {
    await init(signal);
    if (settings.webhookUrl === undefined) return;
    await bot.api.setWebhook(
      settings.webhookUrl,
      {
        allowed_updates: [...ALLOWED_UPDATES],
        ...(webhookSecret === undefined ? {} : { secret_token: webhookSecret }),
      },
      grammySignal(signal),
    );
  };

  // one secret check for the route's header check and its handler: a request's secret is hashed once
  const secretCheck = webhookSecret === undefined ? undefined : webhookSecretCheck(webhookSecret);
  const webhookHandler = createWebhookHandler({
    ...(secretCheck === undefined ? {} : { secret: secretCheck }),
    logger,
    deliver: () => {
      const signal = kit.signal;
      if (signal === undefined || signal.aborted || identity === undefined) return null;
      return (update) => inFlight.track(collectAlbum(update, (updates) => deliver(updates, signal)));
    },
  });

  // routes are added at creation: the gateway takes them before its server starts (503 until start)
  if (secretCheck !== undefined) {
    context.route('POST', settings.webhookPath, webhookHandler, { verify: webhookVerifier(secretCheck, logger) });
  }

  return kit.adapter({
    intake: (target, signal) => {
      sink = target;
      const common = { status, logger, sleep, random, signal };
      if (settings.mode === 'webhook') {
        return retryUntilDone(() => prepareWebhook(signal), common).then((done) => {
          if (done) status.set('connected');
        });
      }
      const prepare = async (s: AbortSignal): Promise<void> => {
        await init(s);
        await bot.api.deleteWebhook({}, grammySignal(s));
      };
      return runPolling({
        ...common,
        api: bot.api,
        prepare,
        deliver,
        state: context.state,
        pollTimeoutS: settings.pollTimeoutS,
      });
    },

    send: (message) => sendMessage(bot.api, message, logger),

    sendMedia: (media) => sendMedia(bot.api, media),
    edit: (message) => editMessage(bot.api, message, logger),
    react: (reaction) => setReaction(bot.api, reaction),

    async sendTyping(chatId, threadId) {
      const thread = telegramThreadId(threadId);
      try {
        await bot.api.sendChatAction(chatId, 'typing', thread === undefined ? {} : { message_thread_id: thread });
      } catch (error) {
        logger.debug({ error: describeError(error), chatId }, 'telegram: typing indicator failed');
      }
    },

    askApproval: (prompt) => askApproval(bot.api, prompt),
    sendButtons: (message) => sendButtons(bot.api, message),
    closeApproval: (chatId, messageId, text) => closeApproval(bot.api, chatId, messageId, text),

    format: markdownToTelegramHtml,
  });
}

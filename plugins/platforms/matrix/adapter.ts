/**
 * The Matrix PlatformAdapter on the Client-Server API (plain fetch, no SDK: docs/platforms/matrix.md
 * says why): events arrive by `/sync` long polling (sync.ts, the one owner of the connection, its
 * token in platform state), everything the bot does is a REST call. Rooms and DMs, mentions,
 * threads, edits for streamed answers, reactions, media through the content repository. No
 * buttons, so approvals are asked in text (`/approve`, `/deny`) by the gateway. Encrypted rooms are
 * not read: the bot says so there once.
 */
import { createHash } from 'node:crypto';
import { type AdapterDeps, createPlatformKit } from '@hermes/plugin-sdk';
import type { PlatformAdapter, PlatformContext } from '@hermes/protocol';
import { E2EE_NOTICE, MATRIX_CAPABILITIES } from './capabilities.js';
import { createMatrixClient } from './client.js';
import { downloadMedia } from './download.js';
import type { PendingMatrixFile } from './events.js';
import { markdownToMatrixHtml } from './format/markdown-to-html.js';
import { type BotIdentity, resolveIdentity } from './identity.js';
import { createRoomDirectory } from './rooms.js';
import { editMessage, type Sender, sendMedia, sendReaction, sendText, sendTyping } from './send.js';
import { PLATFORM, readMatrixSettings } from './settings.js';
import { runSyncLoop } from './sync.js';

/** "typing…" is asked for 30 s; not asked again in the same room sooner than this */
const TYPING_REFRESH_MS = 20_000;

/** Creates the adapter: settings checked (a missing variable throws); nothing is called before start(). */
export function createMatrixAdapter(context: PlatformContext, deps: AdapterDeps = {}): PlatformAdapter {
  const settings = readMatrixSettings(context.settings, context.env);
  const { logger, state } = context;
  const token = settings.accessToken;
  const kit = createPlatformKit(context, deps, {
    platform: PLATFORM,
    capabilities: MATRIX_CAPABILITIES,
    apiUrl: settings.homeserverUrl,
    holdsConnection: true,
    // an error text never carries the token (it is sent in a header, but a proxy may echo it)
    describe: (error) => (error instanceof Error ? error.message : String(error)).split(token).join('[token]'),
  });
  const { status, inFlight, now } = kit;
  const client = createMatrixClient({
    homeserverUrl: settings.homeserverUrl,
    accessToken: token,
    timeoutMs: settings.requestTimeoutMs,
  });
  const rooms = createRoomDirectory(client, state);
  let bot: BotIdentity | undefined;
  const sender: Sender = { client, userId: () => bot?.userId ?? settings.userId, rooms, reactions: new Map() };
  const attachments = kit.attachmentFetcher((file: PendingMatrixFile, signal) =>
    downloadMedia(file, {
      client,
      authenticatedMedia: bot?.authenticatedMedia ?? true,
      cacheDir: context.cacheDir,
      maxBytes: context.mediaMaxBytes,
      signal,
    }),
  );
  const typedAt = new Map<string, number>();

  /** The end of "typing…" once the answer is there (best effort). */
  const typingDone = (roomId: string): void => {
    if (!typedAt.delete(roomId)) return;
    sendTyping(sender, roomId, false).catch(() => undefined);
  };

  async function onEncrypted(roomId: string, from: string): Promise<void> {
    const key = `e2ee_notice:${roomId}`;
    if (state.get(key) !== undefined) {
      logger.debug({ roomId }, 'matrix: skipped an encrypted event (not supported)');
      return;
    }
    logger.info(
      { roomId, sender: from },
      'matrix: an encrypted room; end-to-end encryption is not supported, saying so once',
    );
    const hash = createHash('sha256').update(roomId).digest('hex').slice(0, 16);
    const result = await sendText(sender, {
      chatId: roomId,
      text: E2EE_NOTICE,
      formatted: false,
      idempotencyKey: `e2ee.${hash}`,
    });
    if (!result.ok) logger.warn({ roomId, error: result.message }, 'matrix: the encryption notice was not sent');
    // said once: a room that refuses it (no permission to post) is not asked again either
    if (result.ok || result.error !== 'transient') state.set(key, '1');
  }

  return kit.adapter({
    intake: (sink, signal) =>
      runSyncLoop({
        client,
        sink,
        logger,
        rooms,
        attachments,
        autoJoin: settings.autoJoin,
        onEncrypted,
        onMessage: (roomId) => typedAt.delete(roomId),
        now,
        state,
        status,
        identity: async (s) => {
          bot = await resolveIdentity(client, settings.userId, logger, s);
          return bot;
        },
        syncTimeoutMs: settings.syncTimeoutMs,
        requestTimeoutMs: settings.requestTimeoutMs,
        describe: kit.describe,
        sleep: kit.sleep,
        random: kit.random,
        signal,
      }),

    stopped: () => typedAt.clear(),

    send: (message) =>
      inFlight.track(
        sendText(sender, message).then((result) => {
          if (result.ok) typingDone(message.chatId);
          return result;
        }),
      ),
    sendMedia: (media) => inFlight.track(sendMedia(sender, media)),
    edit: (message) => inFlight.track(editMessage(sender, message)),
    react: (reaction) => inFlight.track(sendReaction(sender, reaction)),

    async sendTyping(chatId) {
      const last = typedAt.get(chatId);
      if (!settings.typingIndicator || (last !== undefined && now() - last < TYPING_REFRESH_MS)) return;
      typedAt.set(chatId, now());
      if (typedAt.size > 10_000) typedAt.delete(typedAt.keys().next().value as string);
      try {
        await sendTyping(sender, chatId, true);
      } catch (error) {
        logger.debug({ error: kit.describe(error), chatId }, 'matrix: typing notice failed');
      }
    },

    format: markdownToMatrixHtml,
  });
}

/** The Discord PlatformAdapter: one discord.js gateway client for intake, one REST client for everything sent. */
import { type AdapterDeps, createPlatformKit } from '@hermes/plugin-sdk';
import type { InboundSink, PlatformAdapter, PlatformContext } from '@hermes/protocol';
import { type Client, Events, GatewayDispatchEvents, Routes } from 'discord.js';
import { acceptEvent } from './accept-event.js';
import { acknowledgeInteraction } from './acknowledge-interaction.js';
import {
  askApproval,
  closeApproval,
  handleComponentPress,
  INTERACTION_MESSAGE_COMPONENT,
  parseComponentPress,
  sendButtons,
} from './approvals.js';
import type { PendingAttachment } from './attachments.js';
import type { BotIdentity } from './bot-identity.js';
import { DISCORD_CAPABILITIES } from './capabilities.js';
import { catchUp } from './catch-up.js';
import { createCatchUpCursors } from './catch-up-cursors.js';
import { createChannelTypeLookup } from './channel-type-lookup.js';
import { createChatQueue } from './chat-queue.js';
import { createClient, createRest, guardPacketHandling } from './client.js';
import { watchClient } from './client-status.js';
import { commandEvent } from './command-event.js';
import { connect } from './connect.js';
import { deliverMessage, type MessageDelivery } from './deliver-message.js';
import { downloadAttachment } from './download-attachment.js';
import { editMessage, setReaction } from './edit-message.js';
import { describeError } from './error-text.js';
import { markdownToDiscord } from './format/markdown-to-discord.js';
import { createInteractionReplies } from './interaction-replies.js';
import { isIgnored, PLATFORM } from './normalize.js';
import { parseInteractionCreate, parseMessageCreate } from './payload.js';
import { sendMedia } from './send-media.js';
import { sendMessage } from './send-message.js';
import { readDiscordSettings } from './settings.js';
import { registerSlashCommands } from './slash-commands.js';

export { DISCORD_CAPABILITIES } from './capabilities.js';

/**
 * Creates the adapter: settings are checked here (a wrong type throws); nothing touches the
 * network before start(). The plugin's factory (factory.ts) creates it when the platform starts,
 * so discord.js is not loaded before.
 */
export function createDiscordAdapter(context: PlatformContext, deps: AdapterDeps = {}): PlatformAdapter {
  const settings = readDiscordSettings(context.settings, context.env);
  const logger = context.logger;
  const kit = createPlatformKit(context, deps, {
    platform: PLATFORM,
    capabilities: DISCORD_CAPABILITIES,
    holdsConnection: true,
    apiUrl: settings.apiBase,
    describe: describeError,
    // a first connection that drops before READY: discord.js reconnects by itself, start() need not wait
    readyStates: ['connected', 'disconnected', 'error'],
  });
  const { now, sleep, random, status, inFlight } = kit;
  const rest = createRest(settings);
  const replies = createInteractionReplies(now);
  const queue = createChatQueue();
  const channelType = createChannelTypeLookup(rest, logger);
  const sendContext = { rest, replies, suppressEmbeds: settings.suppressEmbeds, logger };
  // read from the platform state at each start, not once: in a cluster the instance that takes
  // Discord over starts long after it was built, and the cursors of the channels the previous
  // holder accepted from are what it must catch up on
  const readCursors = () => (settings.catchUpHours > 0 ? createCatchUpCursors(context.state) : undefined);
  let cursors = readCursors();
  const attachments = kit.attachmentFetcher((file: PendingAttachment, signal) =>
    downloadAttachment(file, { cacheDir: context.cacheDir, maxBytes: settings.attachmentMaxBytes, signal }),
  );
  let caughtUp = false;
  let current: Client | undefined;
  let sink: InboundSink | undefined;

  const identity = (client: Client): BotIdentity | undefined =>
    client.user === null ? undefined : { id: client.user.id, name: client.user.globalName ?? client.user.username };

  function delivery(client: Client, target: InboundSink, bot: BotIdentity): MessageDelivery {
    return {
      sink: target,
      bot,
      logger,
      botRoleId: (guildId) => {
        const user = client.user;
        return user === null ? undefined : client.guilds.cache.get(guildId)?.roles.botRoleFor(user)?.id;
      },
      channelType: (channelId) => channelType(client, channelId),
      attachments,
      sleep,
      now,
      onUserMessage: (chatId) => replies.inbound(chatId),
      ...(cursors === undefined ? {} : { cursors }),
    };
  }

  function onMessageCreate(client: Client, data: unknown): void {
    const signal = kit.signal;
    if (client !== current || signal === undefined || signal.aborted || sink === undefined) return;
    const parsed = parseMessageCreate(data);
    if (!parsed.ok) {
      logger.warn({ problem: parsed.problem, messageId: parsed.id }, 'discord: malformed MESSAGE_CREATE skipped');
      return;
    }
    const bot = identity(client);
    if (bot === undefined) {
      logger.warn({ messageId: parsed.value.id }, 'discord: MESSAGE_CREATE before READY skipped');
      return;
    }
    const message = parsed.value;
    if (isIgnored(message, bot)) return;
    const target = delivery(client, sink, bot);
    const task = queue.run(message.channelId, () => deliverMessage(message, data, target, signal));
    inFlight.track(task).catch((error: unknown) => {
      logger.error({ error: describeError(error), messageId: message.id }, 'discord: message delivery failed');
    });
  }

  function onInteractionCreate(client: Client, data: unknown): void {
    const signal = kit.signal;
    if (client !== current || signal === undefined || signal.aborted || sink === undefined) return;
    if (
      typeof data === 'object' &&
      data !== null &&
      (data as { type?: unknown }).type === INTERACTION_MESSAGE_COMPONENT
    ) {
      onComponentPress(data as Record<string, unknown>, sink);
      return;
    }
    const parsed = parseInteractionCreate(data);
    if (parsed.ok === 'ignored') {
      logger.debug({ reason: parsed.reason, interactionId: parsed.id }, 'discord: interaction ignored');
      return;
    }
    if (!parsed.ok) {
      logger.warn(
        { problem: parsed.problem, interactionId: parsed.id },
        'discord: malformed INTERACTION_CREATE skipped',
      );
      return;
    }
    const command = parsed.value;
    if (command.user.bot) return;
    // acknowledge at once (Discord allows 3 s); the answer waits for the acknowledgement
    replies.open(
      { id: command.id, token: command.token, applicationId: command.applicationId, chatId: command.channelId },
      () => inFlight.track(acknowledgeInteraction(rest, command, logger)),
    );
    const event = commandEvent(command, data, now());
    const target = sink;
    const task = queue.run(command.channelId, () => acceptEvent(target, event, { logger, sleep, signal }));
    inFlight.track(task).catch((error: unknown) => {
      logger.error({ error: describeError(error), interactionId: command.id }, 'discord: command delivery failed');
    });
  }

  /** A button press (an approval's buttons): answered at once, never stored. */
  function onComponentPress(data: Record<string, unknown>, target: InboundSink): void {
    const press = parseComponentPress(data);
    if (press === null) {
      logger.warn({ interactionId: data.id }, 'discord: malformed component interaction skipped');
      return;
    }
    void inFlight.track(handleComponentPress(press, { rest, sink: target, logger })).catch((error: unknown) => {
      logger.error({ error: describeError(error), interactionId: press.id }, 'discord: button press failed');
    });
  }

  /** Once per start, when the first session is ready: what users wrote while the gateway was down. */
  function startCatchUp(client: Client): void {
    const signal = kit.signal;
    if (cursors === undefined || caughtUp || signal === undefined) return;
    caughtUp = true;
    const run = catchUp({
      rest,
      cursors,
      logger,
      maxAgeMs: settings.catchUpHours * 3_600_000,
      now,
      signal,
      handle: (data) => onMessageCreate(client, data),
    }).then(({ channels, messages }) => {
      if (channels > 0) logger.info({ channels, messages }, 'discord: caught up with messages written while down');
    });
    void inFlight.track(run).catch((error: unknown) => {
      logger.warn({ error: describeError(error) }, 'discord: catch-up failed');
    });
  }

  function onReady(client: Client): void {
    if (client !== current || client.user === null) return;
    startCatchUp(client);
    if (!settings.slashCommands) return;
    const applicationId = client.application?.id ?? client.user.id;
    const registering = registerSlashCommands({
      rest,
      applicationId,
      commands: context.commands(),
      state: context.state,
      logger,
    });
    void inFlight.track(registering);
  }

  /** A new client with every listener attached; only the current client's events count. */
  function newClient() {
    const client = createClient(settings);
    current = client;
    const active = (): boolean => client === current && kit.signal?.aborted === false;
    const watch = watchClient(client, status, logger, active);
    guardPacketHandling(client, (event, error) => {
      const reason = describeError(error).slice(0, 200);
      logger.warn(
        { event, error: reason },
        `discord: discord.js could not read a malformed ${event} dispatch; skipped`,
      );
    });
    // raw dispatches: the payload is validated here and kept as the event's `raw`
    client.ws.on(GatewayDispatchEvents.MessageCreate, (data: unknown) => {
      try {
        onMessageCreate(client, data);
      } catch (error) {
        logger.error({ error: describeError(error) }, 'discord: MESSAGE_CREATE handling failed');
      }
    });
    client.ws.on(GatewayDispatchEvents.InteractionCreate, (data: unknown) => {
      try {
        onInteractionCreate(client, data);
      } catch (error) {
        logger.error({ error: describeError(error) }, 'discord: INTERACTION_CREATE handling failed');
      }
    });
    client.once(Events.ClientReady, () => onReady(client));
    return { client, watch };
  }

  return kit.adapter({
    intake: async (target, signal) => {
      sink = target;
      caughtUp = false;
      cursors = readCursors();
      await connect({ token: settings.token, newClient, status, logger, sleep, random, signal });
    },

    closing: async () => {
      const client = current;
      current = undefined;
      await client?.destroy().catch((error: unknown) => {
        logger.debug({ error: describeError(error) }, 'discord: client destroy failed');
      });
    },

    stopped: () => {
      rest.clearHashSweeper();
      rest.clearHandlerSweeper();
    },

    send: (message) => sendMessage(sendContext, message),
    sendMedia: (media) => sendMedia(sendContext, media),

    edit: (message) => editMessage(rest, message),

    react: (reaction) => setReaction(rest, reaction),

    async sendTyping(chatId, threadId) {
      try {
        await rest.post(Routes.channelTyping(threadId ?? chatId));
      } catch (error) {
        logger.debug({ error: describeError(error), chatId }, 'discord: typing indicator failed');
      }
    },

    askApproval: (prompt) => askApproval(rest, prompt),
    sendButtons: (message) => sendButtons(rest, message),
    closeApproval: (_chatId, messageId, text) => closeApproval(rest, messageId, text),

    format: markdownToDiscord,
  });
}

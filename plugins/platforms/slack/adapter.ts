/** The Slack PlatformAdapter: one Bolt App, Socket Mode or HTTP events intake, mrkdwn sends in threads. */
import { type AdapterDeps, backoffDelayMs, createPlatformKit } from '@hermes/plugin-sdk';
import type { InboundSink, PlatformAdapter, PlatformContext } from '@hermes/protocol';
import { App, type Receiver, SocketModeReceiver, webApi } from '@slack/bolt';
import { createAnsweredThreads } from './answered-threads.js';
import { APPROVAL_ACTION, askApproval, closeApproval, handleBlockAction, sendButtons } from './approvals.js';
import type { PendingFile } from './attachments.js';
import { boltLogger } from './bolt-logger.js';
import { SLACK_CAPABILITIES } from './capabilities.js';
import { deliverSlackEvent, type InboundDeps } from './deliver-event.js';
import { downloadFile } from './download-file.js';
import { editMessage, setReaction } from './edit-message.js';
import { describeError, platformErrorOf, UNRECOVERABLE_AUTH_ERRORS } from './error-text.js';
import { markdownToMrkdwn } from './format/markdown-to-mrkdwn.js';
import { createHttpIntake } from './http-intake.js';
import { type BotIdentity, PLATFORM } from './normalize.js';
import { createOncePerKey } from './once-per-key.js';
import { sendMedia } from './send-media.js';
import { sendMessage } from './send-message.js';
import { readSlackSettings } from './settings.js';
import { isSinkFailure } from './sink-failure.js';
import { type HeldAcks, holdAcksUntilAccepted } from './socket-ack.js';
import { guardSocketFrames } from './socket-frames.js';
import { createSocketSupervisor, type SocketSupervisor } from './socket-supervisor.js';
import { createUserNames } from './user-names.js';
import { createWebFetch } from './web-fetch.js';

export { SLACK_CAPABILITIES } from './capabilities.js';

/** The events the bot answers (a mention in a channel comes as both, delivered once). */
const MESSAGE_EVENTS = /^(?:message|app_mention)$/;

/** The SDK's own server-ping check is never set below its default. */
const SERVER_PING_TIMEOUT_MIN_MS = 30_000;

/**
 * Creates the adapter: settings are checked here (a wrong type throws) and, in HTTP mode, the route
 * is added; nothing touches the network before start(). The plugin's factory (factory.ts) creates
 * it when the platform starts, so Bolt is not loaded before.
 */
export function createSlackAdapter(context: PlatformContext, deps: AdapterDeps = {}): PlatformAdapter {
  const settings = readSlackSettings(context.settings, context.env);
  const logger = context.logger;
  const kit = createPlatformKit(context, deps, {
    platform: PLATFORM,
    capabilities: SLACK_CAPABILITIES,
    holdsConnection: settings.mode === 'socket',
    apiUrl: settings.apiUrl,
    describe: describeError,
  });
  const { now, sleep, random, status, inFlight } = kit;
  const sdkLogger = boltLogger(logger, settings.sdkLogLevel);
  // Web API calls through an undici keep-alive agent instead of Node's fetch (web-fetch.ts), which
  // also times them out: request_timeout_ms as one timer per call, the WebClient's own timeout off
  const web = createWebFetch({ timeoutMs: settings.requestTimeoutMs });
  // the gateway's outbox is the one that retries (429 after Retry-After); the SDK retries nothing,
  // so a send is made once and a 429 comes back as rate_limited instead of being waited out here
  const clientOptions = (): webApi.WebClientOptions => ({
    slackApiUrl: settings.apiUrl,
    fetch: web.fetch,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: 0,
  });
  const client = new webApi.WebClient(settings.token, { ...clientOptions(), logger: sdkLogger });
  const answered = createAnsweredThreads(context.state);
  const userNames = settings.resolveUserNames ? createUserNames(client, logger, now) : undefined;
  const once = createOncePerKey();
  const attachments = kit.attachmentFetcher((file: PendingFile, signal) =>
    downloadFile(file, {
      token: settings.token,
      cacheDir: context.cacheDir,
      apiUrl: settings.apiUrl,
      maxFileBytes: settings.maxFileBytes,
      timeoutMs: settings.requestTimeoutMs,
      signal,
    }),
  );
  let app: App | undefined;
  let supervisor: SocketSupervisor | undefined;

  const httpIntake =
    settings.mode === 'http' && settings.signingSecret !== undefined
      ? createHttpIntake({
          signingSecret: settings.signingSecret,
          logger,
          ackDeadlineMs: settings.ackDeadlineMs,
          now,
          app: () => (kit.signal === undefined || kit.signal.aborted ? undefined : app),
          track: (task) => inFlight.track(task),
        })
      : undefined;
  // routes are added at creation: the gateway takes them before its server starts (503 until start)
  if (httpIntake !== undefined) context.route('POST', settings.eventsPath, httpIntake.handler);

  /** auth.test, retried with backoff until it works; a refused token ends the attempt. */
  const whoAmI = async (signal: AbortSignal): Promise<BotIdentity | undefined> => {
    for (let attempt = 1; !signal.aborted; attempt += 1) {
      let result: Awaited<ReturnType<typeof client.auth.test>>;
      try {
        result = await client.auth.test();
      } catch (error) {
        const code = platformErrorOf(error);
        if (code !== undefined && UNRECOVERABLE_AUTH_ERRORS.has(code)) {
          throw new Error(`auth.test refused SLACK_BOT_TOKEN (${code})`);
        }
        if (signal.aborted) return undefined;
        status.set('error', describeError(error));
        await sleep(backoffDelayMs(attempt, random), signal);
        continue;
      }
      if (!result.user_id || !result.bot_id) {
        throw new Error('auth.test names no bot user: SLACK_BOT_TOKEN must be a bot token (xoxb-)');
      }
      return { userId: result.user_id, botId: result.bot_id, teamId: result.team_id ?? '' };
    }
    return undefined;
  };

  const buildApp = (bot: BotIdentity, receiver: Receiver, sink: InboundSink, signal: AbortSignal): App => {
    const built = new App({
      token: settings.token,
      botId: bot.botId,
      botUserId: bot.userId,
      tokenVerificationEnabled: false,
      socketMode: settings.mode === 'socket',
      receiver,
      logger: sdkLogger,
      clientOptions: clientOptions(),
      convoStore: false,
      // the bot's own posts are skipped in deliverSlackEvent (its user id, any bot_id): Bolt's
      // ignoreSelf middleware would be one more step on every event
      ignoreSelf: false,
    });
    const inbound: InboundDeps = {
      sink,
      bot,
      logger,
      strictMention: settings.strictMention,
      answered,
      ...(userNames === undefined ? {} : { userNames }),
      attachments,
      once,
      sleep,
      now,
    };
    const onEvent = async ({ event, body }: { event: unknown; body: unknown }): Promise<void> => {
      if (signal.aborted) return; // nothing is delivered after stop()
      await inFlight.track(deliverSlackEvent(event, body, inbound, signal));
    };
    // one listener for both types: Bolt runs every listener's middleware chain on every event
    built.event(MESSAGE_EVENTS, onEvent);
    // approval and action buttons: acked at once (Slack wants it within 3 s), never stored
    built.action(APPROVAL_ACTION, async ({ ack, body }) => {
      await ack();
      if (signal.aborted) return;
      await inFlight.track(handleBlockAction(body, { client, sink, logger }));
    });
    built.error(async (error) => {
      if (isSinkFailure(error)) throw error; // the receiver answers 500 (HTTP); Slack delivers it again
      logger.error({ error: describeError(error) }, 'slack: event handling failed');
    });
    return built;
  };

  const socketReceiver = (appToken: string): SocketModeReceiver => {
    let acks: HeldAcks | undefined;
    const receiver = new SocketModeReceiver({
      appToken,
      logger: sdkLogger,
      // one owner of reconnecting: the supervisor; the SDK only detects a dead socket and closes it
      autoReconnectEnabled: false,
      clientPingTimeout: settings.livenessTimeoutMs,
      serverPingTimeout: Math.max(SERVER_PING_TIMEOUT_MIN_MS, 2 * settings.livenessTimeoutMs),
      installerOptions: { clientOptions: clientOptions() },
      processEventErrorHandler: async ({ error, event }) => {
        if (isSinkFailure(error)) {
          // not acked (the ack Bolt asked for is held back too): Slack delivers the envelope again
          acks?.refuse(event.body);
          logger.error({ error: describeError(error) }, 'slack: event not accepted; left unacked so Slack retries');
          return false;
        }
        logger.warn({ error: describeError(error) }, 'slack: event could not be processed; skipped');
        return true; // acked: a payload Bolt cannot read would fail the same way on every redelivery
      },
    });
    guardSocketFrames(receiver.client, logger);
    acks = holdAcksUntilAccepted(receiver.client, logger, {
      deadlineMs: settings.ackDeadlineMs,
      stopped: () => kit.signal === undefined || kit.signal.aborted,
    });
    return receiver;
  };

  const connect = async (sink: InboundSink, signal: AbortSignal): Promise<void> => {
    const bot = await whoAmI(signal);
    if (bot === undefined || signal.aborted) return;
    if (settings.mode === 'http' && httpIntake !== undefined) {
      app = buildApp(bot, httpIntake.receiver, sink, signal);
      status.set('connected');
      return;
    }
    if (settings.appToken === undefined) throw new Error('Socket Mode needs SLACK_APP_TOKEN');
    const receiver = socketReceiver(settings.appToken);
    app = buildApp(bot, receiver, sink, signal);
    supervisor = createSocketSupervisor({
      client: receiver.client,
      status,
      logger,
      livenessMs: settings.livenessTimeoutMs,
      sleep,
      random,
      now,
    });
    await supervisor.run(signal);
  };

  return kit.adapter({
    intake: async (sink, signal) => {
      try {
        await connect(sink, signal);
      } finally {
        // a connect that was under way when stop() began made its supervisor after closing() ran
        if (signal.aborted) await supervisor?.close();
      }
    },

    closing: async () => {
      await supervisor?.close();
    },

    stopped: () => {
      supervisor = undefined;
      web.close();
    },

    send: (message) =>
      sendMessage(client, message, {
        unfurlLinks: settings.unfurlLinks,
        onThreadPost: (channel, threadTs) => answered.add(channel, threadTs),
      }),

    sendMedia: (media) => sendMedia(client, media),
    askApproval: (prompt) => askApproval(client, prompt),
    sendButtons: (message) => sendButtons(client, message),
    closeApproval: (_chatId, messageId, text) => closeApproval(client, messageId, text),
    edit: (message) => editMessage(client, message),
    react: (reaction) => setReaction(client, reaction),

    format: markdownToMrkdwn,
  });
}

/**
 * The skeleton every platform adapter shares, around what is its own: the kit's seams and trackers,
 * the intake runner behind start() and stop(), the send limits as configured, an attachment
 * fetcher, and the PlatformAdapter object with its name, capabilities and status filled in.
 */
import type {
  Attachment,
  InboundSink,
  Logger,
  PlatformAdapter,
  PlatformCapabilities,
  PlatformConnection,
  PlatformContext,
} from '@hermes/protocol';
import { capabilitiesFor, readSendRateLimit } from '../send-rate.js';
import { type AdapterDeps, type AdapterKit, createAdapterKit } from './adapter-kit.js';
import { type AttachmentFetcher, createAttachmentFetcher } from './attachment-fetcher.js';
import { createIntakeRunner, type IntakeRunner } from './intake-runner.js';

export interface PlatformKitOptions {
  platform: string;
  /** what the platform can do; its `sendRate` is dropped as `capabilitiesFor` says */
  capabilities: PlatformCapabilities;
  /** the platform API's base URL: a loopback one is not paced unless `send_rate_limit` asks */
  apiUrl: string;
  /** what the status tracker's warning on entering 'error' says (default `connection error`) */
  errorMessage?: string;
  /** an error's text for the log and the status (default: its message); redact secrets here */
  describe?: (error: unknown) => string;
  /** the states at which start() resolves (default: connected, error) */
  readyStates?: readonly PlatformConnection[];
  /** the adapter holds the bot's one connection (polling, a gateway WebSocket): PlatformAdapter.holdsConnection */
  holdsConnection?: boolean;
}

/** What an adapter writes itself; the kit fills in `name`, `capabilities` and `status`. */
export interface AdapterParts
  extends Pick<
    PlatformAdapter,
    'send' | 'format' | 'sendTyping' | 'sendMedia' | 'askApproval' | 'sendButtons' | 'closeApproval' | 'edit' | 'react'
  > {
  /** the intake loop start() runs until stop() aborts `signal`; it sets the status to 'connected' */
  intake(sink: InboundSink, signal: AbortSignal): Promise<void>;
  /** run by stop() after the abort, before the loop is awaited (closing a socket the loop waits on) */
  closing?: () => Promise<void>;
  /** run by stop() once the loop and every in-flight task settled (clearing timers) */
  stopped?: () => void;
}

export interface PlatformKit extends AdapterKit {
  platform: string;
  logger: Logger;
  /** the capabilities the adapter reports, send limits as configured */
  capabilities: PlatformCapabilities;
  /** the error text used in logs and the status */
  describe: (error: unknown) => string;
  /** the running loop's signal: undefined before start(), aborted once stop() began */
  readonly signal: AbortSignal | undefined;
  /** an attachment fetcher logging as this platform (see createAttachmentFetcher) */
  attachmentFetcher<F extends { attachment: Attachment }>(
    download: (file: F, signal: AbortSignal) => Promise<string>,
  ): AttachmentFetcher<F>;
  /** the PlatformAdapter: start() and stop() through the intake runner, status() from the tracker */
  adapter(parts: AdapterParts): PlatformAdapter;
}

const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Creates the kit of one adapter; nothing runs before the adapter's start(). */
export function createPlatformKit(
  context: PlatformContext,
  deps: AdapterDeps,
  options: PlatformKitOptions,
): PlatformKit {
  const { platform, describe = errorMessage } = options;
  const logger = context.logger;
  const kit = createAdapterKit(logger, deps, {
    platform,
    ...(options.errorMessage === undefined ? {} : { errorMessage: options.errorMessage }),
  });
  const intake: IntakeRunner = createIntakeRunner({
    platform,
    logger,
    status: kit.status,
    inFlight: kit.inFlight,
    describe,
    ...(options.readyStates === undefined ? {} : { readyStates: options.readyStates }),
  });
  const capabilities = capabilitiesFor(
    options.capabilities,
    options.apiUrl,
    readSendRateLimit(context.settings, platform),
  );
  return {
    ...kit,
    platform,
    logger,
    capabilities,
    describe,
    get signal() {
      return intake.signal;
    },
    attachmentFetcher: (download) =>
      createAttachmentFetcher({
        platform,
        logger,
        describe,
        download,
        maxBytes: context.mediaMaxBytes,
        downloads: context.downloads,
      }),
    adapter: (parts) => ({
      name: platform,
      capabilities,
      ...(options.holdsConnection === undefined ? {} : { holdsConnection: options.holdsConnection }),
      start: (sink) => intake.start((signal) => parts.intake(sink, signal)),
      async stop() {
        await intake.stop(parts.closing);
        parts.stopped?.();
      },
      send: parts.send,
      ...(parts.sendTyping === undefined ? {} : { sendTyping: parts.sendTyping }),
      ...(parts.sendMedia === undefined ? {} : { sendMedia: parts.sendMedia }),
      ...(parts.askApproval === undefined ? {} : { askApproval: parts.askApproval }),
      ...(parts.sendButtons === undefined ? {} : { sendButtons: parts.sendButtons }),
      ...(parts.closeApproval === undefined ? {} : { closeApproval: parts.closeApproval }),
      ...(parts.edit === undefined ? {} : { edit: parts.edit }),
      ...(parts.react === undefined ? {} : { react: parts.react }),
      format: parts.format,
      status: () => kit.status.get(),
    }),
  };
}

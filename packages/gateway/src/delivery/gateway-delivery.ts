/**
 * The gateway's outbound side: every send goes through one delivery path (format, split, outbox,
 * retry, redaction) with the platforms' shared send limits. Answers may carry `MEDIA:` lines
 * (attachments, checked by the outbound media options); commands and notices never do.
 */
import type { Logger, PlatformAdapter } from '@hermes/protocol';
import type { CommitWork, UnitOfWork } from '@hermes/store';
import { type DeliveryObserver, type DeliveryOptions, type DeliveryTarget, deliver } from './deliver.js';
import type { MediaSourceOptions } from './media/media-source.js';
import { SendRateLimiter } from './send-rate-limiter.js';

export interface GatewayDeliveryDeps {
  /** the adapters, read at each send (created after the delivery is) */
  adapters: () => ReadonlyMap<string, PlatformAdapter>;
  commit: CommitWork;
  logger: Logger;
  observer: DeliveryObserver;
  redact?: (text: string) => string;
  /** answers' MEDIA lines become attachments checked with these (absent: they stay text) */
  outboundMedia?: MediaSourceOptions;
}

export class GatewayDelivery {
  /** every platform's send limits (capabilities.sendRate), shared by all deliveries */
  readonly #rateLimiter = new SendRateLimiter();
  readonly #deps: GatewayDeliveryDeps;

  constructor(deps: GatewayDeliveryDeps) {
    this.#deps = deps;
  }

  /** The delivery options of a send; `answer`: an agent's answer, whose MEDIA lines are attachments. */
  options(answer = false): DeliveryOptions {
    const { commit, logger, observer, redact, outboundMedia } = this.#deps;
    return {
      adapters: this.#deps.adapters(),
      logger,
      observer,
      commit,
      rateLimiter: this.#rateLimiter,
      ...(answer && outboundMedia ? { media: outboundMedia } : {}),
      ...(redact ? { redact } : {}),
    };
  }

  /** Sends a notice or a command's answer (no attachments); `onSettled` commits with its outbox marks. */
  readonly send = (target: DeliveryTarget, text: string, onSettled?: UnitOfWork) =>
    deliver(this.options(), target, text, onSettled ? { onSettled } : {});

  /** Sends Markdown text (and `media`, file paths) as an answer: MEDIA lines become attachments. */
  sendAnswer(target: DeliveryTarget, markdown: string, media?: readonly string[]) {
    return deliver(this.options(true), target, markdown, media ? { media } : {});
  }
}

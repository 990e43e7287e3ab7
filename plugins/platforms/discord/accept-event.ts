/** Hands an event to the sink, retrying a failed accept briefly: Discord does not redeliver a gateway event. */

import type { Sleep } from '@hermes/plugin-sdk';
import type { InboundSink, Logger, MessageEvent } from '@hermes/protocol';
import { describeError } from './error-text.js';

/** waits before the second and third attempt */
export const ACCEPT_RETRY_DELAYS_MS = [100, 1_000] as const;

/** Resolves true once accepted; false (logged as an error) when every attempt failed or `signal` aborted. */
export async function acceptEvent(
  sink: InboundSink,
  event: MessageEvent,
  options: { logger: Logger; sleep: Sleep; signal: AbortSignal; state?: Record<string, string> },
): Promise<boolean> {
  const state = options.state;
  for (let attempt = 0; ; attempt++) {
    try {
      // platform state (the catch-up cursor) is written in the accept's own transaction
      await (state === undefined || Object.keys(state).length === 0
        ? sink.accept(event)
        : sink.accept(event, { state }));
      return true;
    } catch (error) {
      const delay = ACCEPT_RETRY_DELAYS_MS[attempt];
      if (delay === undefined || options.signal.aborted) {
        options.logger.error(
          { error: describeError(error), messageId: event.messageId, chatId: event.source.chatId },
          'discord: message not accepted; it is lost',
        );
        return false;
      }
      options.logger.warn(
        { error: describeError(error), messageId: event.messageId },
        'discord: accept failed; retrying',
      );
      await options.sleep(delay, options.signal);
    }
  }
}

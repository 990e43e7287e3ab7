/**
 * Runs a provider call with a deadline and the turn's AbortSignal. The provider gets a signal that
 * aborts at the deadline or on interruption; the call settles then even if the provider ignores
 * its signal, so a hanging provider can never hold the turn.
 */

import { ERROR_CODES, HermesError } from '@hermes/protocol';

/** Why a deadline call ended without the provider's answer: `HERMES_WEB_PROVIDER` (timeout) or `HERMES_INTERRUPTED`. */
export class DeadlineError extends HermesError {
  readonly reason: 'timeout' | 'aborted';
  constructor(reason: 'timeout' | 'aborted', message: string) {
    super(reason === 'timeout' ? ERROR_CODES.WEB_PROVIDER : ERROR_CODES.INTERRUPTED, message, {
      retryable: reason === 'timeout',
    });
    this.name = 'DeadlineError';
    this.reason = reason;
  }
}

/** Resolves with `run`'s result, or rejects with a DeadlineError after `timeoutMs` or on `outer` abort. */
export async function callWithDeadline<T>(
  run: (signal: AbortSignal) => T | Promise<T>,
  timeoutMs: number,
  outer?: AbortSignal,
): Promise<T> {
  const controller = new AbortController();
  let stop: (err: DeadlineError) => void = () => undefined;
  const stopped = new Promise<never>((_, reject) => {
    stop = reject;
  });
  const timer = setTimeout(() => {
    const err = new DeadlineError('timeout', `no answer within ${timeoutMs / 1000} s`);
    controller.abort(err);
    stop(err);
  }, timeoutMs);
  const onAbort = () => {
    const err = new DeadlineError('aborted', 'interrupted');
    controller.abort(err);
    stop(err);
  };
  if (outer?.aborted) onAbort();
  else outer?.addEventListener('abort', onAbort, { once: true });
  try {
    return await Promise.race([Promise.resolve().then(() => run(controller.signal)), stopped]);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onAbort);
  }
}

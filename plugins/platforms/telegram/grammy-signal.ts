/** Interop: grammy's Node build types AbortSignal as the `abort-controller` polyfill's class. */
import type { Api } from 'grammy';

/** The signal type grammy's API methods declare. */
export type GrammySignal = NonNullable<Parameters<Api['getMe']>[0]>;

/**
 * Passes a native AbortSignal to grammy. At run time grammy accepts any signal with
 * addEventListener (its validateSignal checks just that); only the declared types differ.
 */
export function grammySignal(signal: AbortSignal): GrammySignal {
  return signal as unknown as GrammySignal;
}

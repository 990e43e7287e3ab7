/** Short, log-safe descriptions of grammy errors: the bot token is never part of them. */
import { GrammyError, HttpError } from 'grammy';

/** Hides the token in any `/bot<token>/` URL piece. */
export function redactToken(text: string): string {
  return text.replace(/\/(file\/)?bot[^/\s]+\//g, '/$1bot<token>/');
}

/** `409: Conflict: ...` for API errors, `network: ...` for HTTP failures, the message otherwise. */
export function describeError(error: unknown): string {
  if (error instanceof GrammyError) return `${error.error_code}: ${error.description}`;
  if (error instanceof HttpError) {
    const cause = error.error instanceof Error ? error.error.message : String(error.error);
    return redactToken(`network: ${cause}`);
  }
  return redactToken(error instanceof Error ? error.message : String(error));
}

/** Telegram's own retry hint, in milliseconds, when the error carries one. */
export function retryAfterMs(error: unknown): number | undefined {
  if (!(error instanceof GrammyError)) return undefined;
  const seconds = error.parameters.retry_after;
  return typeof seconds === 'number' ? seconds * 1000 : undefined;
}

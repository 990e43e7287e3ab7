/** When and how long to wait before retrying a model request. Pure, with units in names. */
export const RETRY_BASE_MS = 1_000;
export const RETRY_MAX_MS = 30_000;
export const RETRY_AFTER_MAX_MS = 60_000;

/** Statuses that prove the request can be tried again: timeout, conflict, rate limit, server errors. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Milliseconds the server asked us to wait (`retry-after-ms`, `retry-after` seconds or date), if any. */
export function retryAfterMs(headers: Headers | undefined, now: () => number = Date.now): number | null {
  if (!headers) return null;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const after = headers.get('retry-after');
  if (after === null || after.trim() === '') return null;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(after);
  return Number.isNaN(date) ? null : Math.max(0, date - now());
}

/** Delay before retry number `retry` (1-based): the server's ask, capped, else exponential backoff with jitter. */
export function retryDelayMs(retry: number, serverAskMs: number | null, random: () => number = Math.random): number {
  if (serverAskMs !== null) return Math.min(serverAskMs, RETRY_AFTER_MAX_MS);
  const exp = Math.min(RETRY_BASE_MS * 2 ** (retry - 1), RETRY_MAX_MS);
  return Math.round(exp * (0.75 + random() * 0.5));
}

/** Sleeps `ms`, resolving early with false when `signal` aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

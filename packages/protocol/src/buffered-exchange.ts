/**
 * One HTTP exchange through an undici dispatcher's `dispatch`, with a handler that keeps the
 * answer's chunks: what the model client, the Discord REST client and the Slack Web API client
 * send per message. undici's `request()` wraps each exchange in an AsyncResource, a Readable for
 * the body and a consumer to read it back (about a third of a client's CPU per exchange), and
 * Node's `fetch` builds a Request, Headers and web streams on top; callers here read the answer
 * whole anyway. The types are the parts of undici's Dispatcher this uses, so that this package
 * does not depend on undici; an undici Agent, Pool or global dispatcher fits them.
 */

/** undici's `DispatchHandler`, the callbacks this uses. */
export interface ExchangeHandler {
  onConnect(abort: (reason: Error) => void): void;
  onHeaders(statusCode: number, headers: Buffer[], resume: () => void, statusText: string): boolean;
  onData(chunk: Buffer): boolean;
  onComplete(trailers: unknown): void;
  onError(error: Error): void;
}

/** The request as undici's `dispatch` takes it (origin, path, method, headers, body, its timeouts). */
export interface ExchangeRequest {
  origin: string;
  path: string;
  method: string;
  headers?: Record<string, string> | undefined;
  /** undici also writes an iterable of chunks in order (its dispatch docs), typed here as its Buffer */
  body?: string | Buffer | Uint8Array | null | undefined;
  headersTimeout?: number | undefined;
  bodyTimeout?: number | undefined;
}

/** An undici dispatcher (Agent, Pool, the global one), as far as this uses it. */
export interface Dispatching {
  dispatch(request: ExchangeRequest, handler: ExchangeHandler): boolean;
}

export interface BufferedAnswer {
  status: number;
  statusText: string;
  /** undici's raw header list: name, value, name, value, ... */
  rawHeaders: readonly Buffer[];
  /** the body as it came, in chunks (one, mostly) */
  chunks: Buffer[];
}

export interface ExchangeStop {
  /** aborts the exchange; the promise rejects with the signal's reason */
  signal?: AbortSignal | null | undefined;
  /** stops the exchange after this long (one timer; 0 or absent: none), rejecting with `timeoutReason()` */
  timeoutMs?: number;
  timeoutReason?: () => unknown;
  /** what a failed exchange (not stopped) rejects with; default: undici's error as it is */
  failed?: (error: Error) => unknown;
}

const asError = (reason: unknown): Error =>
  reason instanceof Error ? reason : new Error('This operation was aborted');

/** The body whole: the one chunk itself, else the chunks joined. */
export function answerBytes(answer: BufferedAnswer): Buffer {
  return answer.chunks.length === 1 ? (answer.chunks[0] as Buffer) : Buffer.concat(answer.chunks);
}

/** Sends `request` and resolves with the whole answer (any status), or rejects as `stop` says. */
export function bufferedExchange(
  dispatcher: Dispatching,
  request: ExchangeRequest,
  stop: ExchangeStop = {},
): Promise<BufferedAnswer> {
  const { signal } = stop;
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise<BufferedAnswer>((resolve, reject) => {
    /** why the exchange was stopped: the signal's reason or the timeout's */
    let stopped: { reason: unknown } | undefined;
    let abort: ((reason: Error) => void) | null = null;
    const halt = (reason: unknown): void => {
      if (stopped !== undefined) return;
      stopped = { reason };
      abort?.(asError(reason));
    };
    const onAbort = (): void => halt(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const timeoutMs = stop.timeoutMs ?? 0;
    const timer =
      timeoutMs > 0 ? setTimeout(() => halt(stop.timeoutReason?.() ?? new Error('timed out')), timeoutMs) : undefined;
    timer?.unref();
    const done = (): void => {
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    let status = 0;
    let statusText = '';
    let rawHeaders: readonly Buffer[] = [];
    const chunks: Buffer[] = [];
    dispatcher.dispatch(request, {
      onConnect(abortExchange) {
        if (stopped !== undefined) abortExchange(asError(stopped.reason));
        else abort = abortExchange;
      },
      onHeaders(statusCode, headers, _resume, text) {
        if (statusCode < 200) return true; // 1xx: the answer is still to come
        status = statusCode;
        statusText = text;
        rawHeaders = headers;
        return true;
      },
      onData(chunk) {
        chunks.push(chunk);
        return true;
      },
      onComplete() {
        done();
        resolve({ status, statusText, rawHeaders, chunks });
      },
      onError(error) {
        done();
        if (stopped !== undefined) reject(stopped.reason);
        else reject(stop.failed ? stop.failed(error) : error);
      },
    });
  });
}

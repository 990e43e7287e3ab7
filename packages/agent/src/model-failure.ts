/**
 * What went wrong with one model request, named for people: which timeout fired (connect, first
 * byte, idle between chunks), a refused connection, a name that does not resolve, a TLS failure,
 * a reset, or the HTTP status with the provider's own message. The result is a HermesError whose
 * `message` (for the log) names the endpoint and whose `detail` (for the person who asked) does not.
 */
import { ERROR_CODES, HermesError } from '@hermes/protocol';
import type OpenAI from 'openai';
import { summarizeErrorText } from './error-summary.js';
import { isRetryableStatus, retryAfterMs } from './retry-policy.js';

/** What went wrong: an HTTP error status, a timeout, no connection, or an unusable response body. */
export type ModelErrorKind = 'http' | 'timeout' | 'connection' | 'response';

/** The timeouts of one attempt, in ms, for the messages (model-client.ts applies them). */
export interface AttemptTimeouts {
  connectMs: number;
  firstByteMs: number;
  idleMs: number;
}

export interface ModelFailure {
  error: HermesError;
  /** the HTTP status, 0 when there was none */
  status: number;
  /** what the server asked us to wait before trying again, if it did */
  waitMs: number | null;
  kind: ModelErrorKind;
}

/** The SDK's error classes (loaded lazily with the SDK). */
export type SdkErrors = Pick<typeof OpenAI, 'APIConnectionTimeoutError' | 'APIConnectionError' | 'APIError'>;

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`.replace('.0 s', ' s');

/** Every error in the cause chain, outermost first. */
function chain(err: unknown): (Error & { code?: unknown })[] {
  const out: (Error & { code?: unknown })[] = [];
  for (let at: unknown = err; at instanceof Error && out.length < 8 && !out.includes(at); at = at.cause) out.push(at);
  return out;
}

/** The first string `code` down the chain (undici's UND_ERR_*, the socket's ECONNREFUSED, ...). */
function socketCode(err: unknown): string | null {
  for (const e of chain(err)) if (typeof e.code === 'string') return e.code;
  return null;
}

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_|SELF_SIGNED_|UNABLE_TO_(GET|VERIFY)_)/;

/** A plain name for a connection failure's socket code. */
function connectionDetail(code: string | null): string {
  if (code === null) return 'the connection failed';
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') return 'the host name does not resolve';
  if (TLS_CODE.test(code)) return `TLS failed (${code})`;
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') return 'the connection was reset';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'the host is unreachable';
  return `the connection failed (${code})`;
}

/** Which timeout fired, from undici's error code (the SDK's own first-byte timer has none). */
function timeoutDetail(code: string | null, t: AttemptTimeouts): string {
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return `no connection within ${seconds(t.connectMs)}`;
  if (code === 'UND_ERR_BODY_TIMEOUT') return `the answer stopped for ${seconds(t.idleMs)}`;
  return `no answer within ${seconds(t.firstByteMs)}`;
}

function isTimeout(err: unknown, sdk: SdkErrors): boolean {
  if (err instanceof sdk.APIConnectionTimeoutError) return true;
  const code = socketCode(err);
  return code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
}

/** The provider's message of an HTTP error, on one short line, with the key we sent blanked. */
function providerMessage(err: InstanceType<typeof OpenAI.APIError>, apiKey: string): string {
  const body = err.error as { message?: unknown } | undefined;
  const text = typeof body?.message === 'string' ? body.message : err.message.replace(/^\d{3}\s+/, '');
  const summary = summarizeErrorText(text);
  // an endpoint (or a proxy in front of it) may quote the key it was sent
  return apiKey.length >= 6 ? summary.split(apiKey).join('[REDACTED]') : summary;
}

/** Classifies what one attempt threw (not the caller's abort: that is checked first). */
export function classifyModelFailure(
  err: unknown,
  context: { sdk: SdkErrors; where: string; apiKey: string; status: number; timeouts: AttemptTimeouts },
): ModelFailure {
  const { sdk, where, status } = context;
  if (err instanceof HermesError) {
    const kind =
      err.code === ERROR_CODES.MODEL_HTTP
        ? 'http'
        : err.code === ERROR_CODES.MODEL_UNREACHABLE
          ? 'connection'
          : err.code === ERROR_CODES.MODEL_TIMEOUT
            ? 'timeout'
            : 'response';
    return { error: err, status, waitMs: null, kind };
  }
  if (isTimeout(err, sdk)) {
    const detail = timeoutDetail(socketCode(err), context.timeouts);
    const error = new HermesError(ERROR_CODES.MODEL_TIMEOUT, `model request to ${where} timed out: ${detail}`, {
      cause: err,
      retryable: true,
      detail,
    });
    return { error, status: 0, waitMs: null, kind: 'timeout' };
  }
  if (err instanceof sdk.APIConnectionError) {
    const code = socketCode(err.cause);
    const detail = connectionDetail(code);
    const error = new HermesError(
      ERROR_CODES.MODEL_UNREACHABLE,
      `cannot reach model endpoint ${where}: ${detail}${code !== null && !detail.includes(code) ? ` (${code})` : ''}`,
      { cause: err, retryable: true, detail },
    );
    return { error, status: 0, waitMs: null, kind: 'connection' };
  }
  if (err instanceof sdk.APIError && typeof err.status === 'number') {
    const detail = providerMessage(err, context.apiKey);
    const error = new HermesError(
      ERROR_CODES.MODEL_HTTP,
      `model endpoint ${where} answered HTTP ${err.status}: ${detail}`,
      {
        cause: err,
        retryable: isRetryableStatus(err.status),
        detail,
      },
    );
    return { error, status: err.status, waitMs: retryAfterMs(err.headers), kind: 'http' };
  }
  const code = socketCode(err);
  if (code !== null && /^(E[A-Z]+|UND_ERR_SOCKET)$/.test(code)) {
    // a socket failure in the middle of a streamed answer (the SDK passes it through unwrapped)
    const detail = connectionDetail(code);
    const error = new HermesError(ERROR_CODES.MODEL_UNREACHABLE, `model endpoint ${where}: ${detail} (${code})`, {
      cause: err,
      retryable: true,
      detail,
    });
    return { error, status, waitMs: null, kind: 'connection' };
  }
  const message = err instanceof Error ? err.message : String(err);
  const error = new HermesError(ERROR_CODES.MODEL_RESPONSE, `bad response from model endpoint ${where}: ${message}`, {
    cause: err,
    retryable: true,
  });
  return { error, status, waitMs: null, kind: 'response' };
}

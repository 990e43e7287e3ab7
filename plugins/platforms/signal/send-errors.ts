/**
 * What a refused signal-cli call means for delivery (SendResult): by the per-recipient results
 * signal-cli attaches to a failed send (`data.response.results[].type`) first, then by its error
 * code. A daemon that does not answer is transient: the gateway retries it.
 */
import type { SendResult } from '@hermes/protocol';
import { isRecord, RPC_IO_ERROR, RPC_RATE_LIMIT, RPC_UNTRUSTED_KEY, RpcError } from './rpc.js';

export type SendFailure = Extract<SendResult, { ok: false }>;

/** how long to wait on a rate limit whose answer names no time */
const DEFAULT_RATE_RETRY_MS = 5_000;

/** One recipient's outcome of a send, as signal-cli reports it. */
export interface RecipientResult {
  type: string;
  retryAfterSeconds?: number;
}

/** The `results` of a send's answer (`{ timestamp, results }`), or of a failed send's `data.response`. */
export function recipientResults(value: unknown): RecipientResult[] {
  const response = isRecord(value) && isRecord(value.response) ? value.response : value;
  if (!isRecord(response) || !Array.isArray(response.results)) return [];
  return response.results.filter(isRecord).map((r) => ({
    type: typeof r.type === 'string' ? r.type : 'UNKNOWN',
    ...(typeof r.retryAfterSeconds === 'number' ? { retryAfterSeconds: r.retryAfterSeconds } : {}),
  }));
}

/** The failure the recipients' results say, when none succeeded; undefined when one did (or none is listed). */
export function resultsFailure(results: readonly RecipientResult[], message: string): SendFailure | undefined {
  if (results.length === 0 || results.some((r) => r.type === 'SUCCESS')) return undefined;
  const limited = results.find((r) => r.type === 'RATE_LIMIT_FAILURE');
  if (limited !== undefined) {
    const retryAfterMs =
      limited.retryAfterSeconds !== undefined ? limited.retryAfterSeconds * 1000 : DEFAULT_RATE_RETRY_MS;
    return { ok: false, error: 'rate_limited', message, retryAfterMs };
  }
  if (results.every((r) => r.type === 'UNREGISTERED_FAILURE')) {
    return { ok: false, error: 'not_found', message: `${message}: the number is not on Signal` };
  }
  if (results.some((r) => r.type === 'IDENTITY_FAILURE')) {
    return {
      ok: false,
      error: 'forbidden',
      message: `${message}: the recipient's safety number changed (signal-cli trust)`,
    };
  }
  return { ok: false, error: 'transient', message };
}

/** A failed call as the gateway's typed send failure. */
export function toSendFailure(error: unknown): SendFailure {
  if (!(error instanceof RpcError)) {
    return { ok: false, error: 'transient', message: error instanceof Error ? error.message : String(error) };
  }
  const { code, status, message } = error;
  const byResults = resultsFailure(recipientResults(error.data), message);
  if (byResults !== undefined) return byResults;
  if (code === null) {
    return status === null || status >= 500 || status === 429
      ? { ok: false, error: 'transient', message, ...(status === null ? {} : { status }) }
      : { ok: false, error: 'bad_format', message };
  }
  if (code === RPC_RATE_LIMIT)
    return { ok: false, error: 'rate_limited', message, retryAfterMs: DEFAULT_RATE_RETRY_MS };
  if (code === RPC_UNTRUSTED_KEY) return { ok: false, error: 'forbidden', message };
  if (code === RPC_IO_ERROR) return { ok: false, error: 'transient', message };
  // -1 (a user error: an unknown group, a bad recipient), -32602 (bad params), -32601 (no such method)
  return { ok: false, error: 'bad_format', message };
}

/**
 * What a refused SMTP send means for delivery (SendResult). The reply code decides: a 4xx is the
 * server's "not now" (greylisting, a rate limit, a full queue): it did not take the mail, so it is
 * sent again after `smtp_retry_ms`; a 5xx is final (an unknown recipient, a mail too large, a
 * refused login or a policy). A server that cannot be reached at all did not take the mail either
 * and is tried again the same way; a connection lost in the middle of a send may have delivered it
 * and is not repeated.
 */
import type { SendResult } from '@hermes/protocol';

export type SendFailure = Extract<SendResult, { ok: false }>;

/** The fields nodemailer puts on its errors (NodemailerError), read defensively. */
interface SmtpErrorFields {
  code?: unknown;
  command?: unknown;
  responseCode?: unknown;
  response?: unknown;
}

/** connection failures before anything was sent (nodemailer's command `CONN`, DNS) */
const NOT_CONNECTED = new Set(['EDNS', 'ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH']);

/** The reply's enhanced status code (`5.1.1`), if the server gave one. */
const enhanced = (response: string): string | undefined => /\b([245]\.\d{1,3}\.\d{1,3})\b/.exec(response)?.[1];

/** A send's error as the gateway's typed send failure; `retryMs` is smtp_retry_ms. */
export function toSendFailure(error: unknown, retryMs: number): SendFailure {
  const fields = (typeof error === 'object' && error !== null ? error : {}) as SmtpErrorFields;
  const code = typeof fields.code === 'string' ? fields.code : undefined;
  const command = typeof fields.command === 'string' ? fields.command : undefined;
  const reply = typeof fields.responseCode === 'number' ? fields.responseCode : undefined;
  const response = typeof fields.response === 'string' ? fields.response.slice(0, 300) : '';
  const message = (response || (error instanceof Error ? error.message : String(error))).slice(0, 300);
  if (reply !== undefined && reply >= 400 && reply < 500) {
    return {
      ok: false,
      error: 'rate_limited',
      message: `the SMTP server refused for now: ${message}`,
      retryAfterMs: retryMs,
    };
  }
  if (reply !== undefined && reply >= 500) {
    const status = enhanced(response) ?? '';
    if (reply === 552 || reply === 523 || status === '5.3.4' || status === '5.2.3') {
      return { ok: false, error: 'bad_format', message: `the SMTP server refused the mail's size: ${message}` };
    }
    if (status.startsWith('5.1.') || reply === 551) return { ok: false, error: 'not_found', message };
    if (reply >= 500 && reply <= 504) return { ok: false, error: 'bad_format', message };
    return { ok: false, error: 'forbidden', message };
  }
  if (code === 'EAUTH' || code === 'ENOAUTH') return { ok: false, error: 'forbidden', message };
  const cause = (error as { errno?: unknown; syscall?: unknown; originalCode?: unknown }) ?? {};
  const original = typeof cause.originalCode === 'string' ? cause.originalCode : undefined;
  if (
    command === 'CONN' ||
    (code !== undefined && NOT_CONNECTED.has(code)) ||
    (original && NOT_CONNECTED.has(original))
  ) {
    return {
      ok: false,
      error: 'rate_limited',
      message: `the SMTP server cannot be reached: ${message}`,
      retryAfterMs: retryMs,
    };
  }
  return { ok: false, error: 'transient', message };
}

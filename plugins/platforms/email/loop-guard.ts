/**
 * Mail the bot must never answer (RFC 3834, and what autoresponders and list servers really send):
 * auto-replies and bounces, mailing lists and bulk mail, and the bot's own mail. An answer to any of
 * them could start a loop (two autoresponders answering each other) or spam a list; such a mail is
 * skipped before the gateway sees it. The bot's own answers carry `Auto-Submitted: auto-replied`
 * and `X-Auto-Response-Suppress: All`, so a well-behaved responder does not answer them either.
 */
import type { MailHeaders } from './headers.js';

/** senders that are machines by name: bounces, postmasters, no-reply addresses, list robots */
const MACHINE_SENDER =
  /^(mailer-daemon|postmaster|no-?reply|do-?not-?reply|bounces?|[^@]*-request|owner-[^@]*|[^@]*-bounces(\+[^@]*)?)@/i;

/**
 * Why a mail is not answered, or null when it may be. `from` is the sender's address (lower case),
 * `own` the bot's.
 */
export function loopRefusal(headers: MailHeaders, from: string, own: string): string | null {
  if (from === own) return "the bot's own mail";
  const autoSubmitted = headers.first('auto-submitted')?.toLowerCase();
  if (autoSubmitted !== undefined && autoSubmitted.split(';')[0]?.trim() !== 'no') {
    return `an automatic mail (Auto-Submitted: ${autoSubmitted.slice(0, 40)})`;
  }
  const precedence = headers.first('precedence')?.toLowerCase();
  if (precedence !== undefined && /^(bulk|junk|list|auto_reply)\b/.test(precedence)) {
    return `bulk or list mail (Precedence: ${precedence.slice(0, 40)})`;
  }
  const suppress = headers.first('x-auto-response-suppress')?.toLowerCase();
  if (suppress !== undefined && suppress !== 'none') {
    return `a mail that asks not to be answered (X-Auto-Response-Suppress: ${suppress.slice(0, 40)})`;
  }
  if (headers.has('list-id') || headers.has('list-unsubscribe') || headers.has('list-post')) {
    return 'mailing-list mail (List-Id / List-Unsubscribe)';
  }
  if (headers.has('x-autoreply') || headers.has('x-autorespond') || headers.has('x-auto-reply')) {
    return 'an auto-reply (X-Autoreply / X-Autorespond)';
  }
  if (headers.first('return-path')?.replace(/\s/g, '') === '<>') return 'a bounce (an empty Return-Path)';
  if (/^multipart\/report\b/i.test(headers.first('content-type') ?? '')) {
    return 'a delivery or read report (multipart/report)';
  }
  if (MACHINE_SENDER.test(from)) return `a mail from a machine address (${from.slice(0, 80)})`;
  return null;
}

/**
 * Whether the receiving server vouched for the sender: its Authentication-Results (the topmost one,
 * the receiving server's own; any below it came with the mail and prove nothing) says dmarc=pass.
 */
export function dmarcPassed(headers: MailHeaders): boolean {
  const topmost = headers.first('authentication-results');
  return topmost !== undefined && /(^|[;\s])dmarc\s*=\s*pass\b/i.test(topmost);
}

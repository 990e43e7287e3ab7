/**
 * One parsed mail as what the gateway takes: a user's message in its thread's chat (the reply's
 * own text, HTML turned to text by mailparser, its files still to store), or nothing with the
 * reason for the log: a loop risk (auto-replies, bounces, lists: loop-guard.ts), a sender no
 * allowlist names while `unknown_senders` is `ignore`, a sender the receiving server did not vouch
 * for when `require_dmarc_pass` is on, a mail without a sender or without anything to read.
 * Never throws.
 */
import { createHash } from 'node:crypto';
import { pendingAttachment, userMessage } from '@hermes/plugin-sdk';
import type { Attachment, MessageEvent } from '@hermes/protocol';
import type { ParsedMail } from 'mailparser';
import { mailHeaders } from './headers.js';
import { dmarcPassed, loopRefusal } from './loop-guard.js';
import { stripQuoted } from './quote-strip.js';
import { ADDRESS, PLATFORM, type UnknownSenders } from './settings.js';
import { type ChatThread, encodeChatThread } from './thread-state.js';
import { chatIdOf, contentMessageId, messageIdList, normalizeMessageId, threadKeyOf } from './threads.js';

/** A file of a mail, its bytes already in memory (parsed from the mail), still to store in the cache. */
export interface PendingEmailFile {
  /** its name in the attachment cache: the mail's and the file's, so a mail read again finds it */
  cacheName: string;
  content: Buffer;
  fileName: string;
  attachment: Attachment;
}

export type Inbound =
  | {
      kind: 'message';
      event: MessageEvent;
      files: PendingEmailFile[];
      /** the thread's record for the answer (subject, References), written with the accept */
      chatState: { key: string; value: string };
    }
  | { kind: 'skip'; reason: string /** logged at debug (the bot's own mail) rather than info */; routine: boolean };

export interface ReadContext {
  /** the bot's address (lower case) */
  own: string;
  receivedAt: number;
  /** whether an allowlist names this address (as the gateway compares: exactly, lower case) */
  allowlisted: (address: string) => boolean;
  unknownSenders: UnknownSenders;
  requireDmarcPass: boolean;
  /** where the mail is (logged with a skip, kept in the event's raw payload) */
  uid: number;
}

/** an embedded image this small (a signature's logo, a tracking pixel) is not handed to the model */
const SMALL_INLINE_IMAGE_BYTES = 16 * 1024;

const skip = (reason: string, routine = false): Inbound => ({ kind: 'skip', reason, routine });

/** The subject without its reply and forward prefixes (`Re:`, `AW:`, `Fwd:`, `[2]`...). */
export function baseSubject(subject: string | undefined): string {
  let s = (subject ?? '').replace(/\s+/g, ' ').trim();
  for (let before = ''; before !== s; ) {
    before = s;
    s = s.replace(/^(re|aw|sv|antw|wg|fwd?|tr)\s*(\[\d+\])?\s*:\s*/i, '').trim();
  }
  return s.slice(0, 200);
}

function files(parsed: Pick<ParsedMail, 'attachments'>, messageId: string): PendingEmailFile[] {
  const out: PendingEmailFile[] = [];
  const mail = createHash('sha256').update(messageId).digest('hex').slice(0, 16);
  parsed.attachments.forEach((file, index) => {
    const mimeType = file.contentType.split(';')[0]?.trim().toLowerCase() || 'application/octet-stream';
    if (file.related === true && mimeType.startsWith('image/') && file.content.length < SMALL_INLINE_IMAGE_BYTES)
      return;
    const extension =
      mimeType
        .split('/')[1]
        ?.replace(/^x-/, '')
        .replace(/[^a-z0-9]/g, '') ?? 'bin';
    const name = file.filename?.trim() || `attachment-${index + 1}.${extension}`;
    const { fileName, attachment } = pendingAttachment({ name, mimeType, size: file.content.length });
    out.push({ cacheName: `${mail}-${index}-${fileName}`, content: file.content, fileName, attachment });
  });
  return out;
}

/** What the model reads: the reply's own text; a thread's first mail is headed by its subject. */
function textOf(parsed: ParsedMail, isReply: boolean): string {
  const body = stripQuoted(parsed.text ?? '');
  const subject = baseSubject(parsed.subject);
  if (body === '') return subject;
  // a command is the whole text (`/new`), and a reply's subject is the thread's, said before
  if (isReply || subject === '' || body.startsWith('/') || body.startsWith(subject)) return body;
  return `Subject: ${subject}\n\n${body}`;
}

/** What the model is told of a mail over max_mail_bytes (only its headers were read). */
export function tooLargeNote(size: number, maxBytes: number): string {
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `[a mail of ${mb(size)}, over the ${mb(maxBytes)} this gateway reads (gateway.platforms.email.max_mail_bytes): its text and files were not read]`;
}

/**
 * Reads a parsed mail; `source` is its bytes (the id of a mail without a Message-ID). `tooLarge`:
 * only the headers were fetched (the mail's size is over max_mail_bytes); the text says so.
 */
export function readMail(
  parsed: ParsedMail,
  source: Uint8Array,
  context: ReadContext,
  tooLarge?: { size: number; maxBytes: number },
): Inbound {
  const headers = mailHeaders(parsed.headerLines ?? []);
  const sender = parsed.from?.value.find((a) => typeof a.address === 'string' && a.address !== '');
  const address = sender?.address?.trim().toLowerCase();
  if (address === undefined) return skip('a mail without a sender (no From address)');
  if (!ADDRESS.test(address)) return skip(`a mail from a malformed address (${address.slice(0, 80)})`);
  const loop = loopRefusal(headers, address, context.own);
  if (loop !== null) return skip(loop, address === context.own);
  if (context.requireDmarcPass && !dmarcPassed(headers)) {
    return skip(`a mail from ${address} the receiving server did not vouch for (no dmarc=pass)`);
  }
  if (context.unknownSenders === 'ignore' && !context.allowlisted(address)) {
    return skip(`a mail from ${address}, whom no allowlist names (unknown_senders: ignore)`);
  }
  const messageId = normalizeMessageId(parsed.messageId) ?? contentMessageId(source);
  const inReplyTo = messageIdList(parsed.inReplyTo);
  const references = messageIdList(parsed.references);
  const threadKey = threadKeyOf({ messageId, inReplyTo, references });
  const pending = tooLarge === undefined ? files(parsed, messageId) : [];
  const isReply = inReplyTo.length > 0 || references.length > 0;
  const text = tooLarge === undefined ? textOf(parsed, isReply) : tooLargeNote(tooLarge.size, tooLarge.maxBytes);
  if (text.trim() === '' && pending.length === 0) return skip(`a mail from ${address} without text or files`);
  const chatId = chatIdOf(address, threadKey);
  const name = sender?.name?.trim();
  const { event } = userMessage(
    {
      messageId,
      source: {
        platform: PLATFORM,
        chatId,
        chatType: 'dm',
        userId: address,
        ...(name ? { userName: name.slice(0, 100) } : {}),
      },
      receivedAt: context.receivedAt,
      raw: {
        uid: context.uid,
        messageId,
        from: address,
        subject: parsed.subject?.slice(0, 300) ?? null,
        date: parsed.date?.toISOString() ?? null,
        inReplyTo,
        references: references.slice(-10),
      },
      text,
    },
    pending,
  );
  // the answer's References: the thread's first id, the last few, and this mail (RFC 5322 3.6.4)
  const chain = [...references, messageId];
  const thread: ChatThread = {
    subject: baseSubject(parsed.subject),
    last: messageId,
    references: chain.length > 8 ? [chain[0] as string, ...chain.slice(-7)] : chain,
  };
  return { kind: 'message', event, files: pending, chatState: encodeChatThread(chatId, thread) };
}

/**
 * What the bot sends over SMTP: an answer as a plain-text mail in its thread (`Re:` subject,
 * In-Reply-To and References from the thread's record), a file as a mail with it attached. Every
 * mail is marked as an automatic answer (`Auto-Submitted`, `X-Auto-Response-Suppress: All`) so an
 * autoresponder does not answer it back. Its Message-ID is made from the thread and the outbox's
 * idempotency key: a send repeated after a crash is the same mail, which mail readers show once.
 * Each send answers a SendResult (the Message-ID) and never throws.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { OutboundMedia, OutboundMessage, SendResult } from '@hermes/protocol';
import type { SendMailOptions } from 'nodemailer';
import { toSendFailure } from './send-errors.js';
import { ADDRESS } from './settings.js';
import { chatStateKey, decodeChatThread } from './thread-state.js';
import { newThreadKey, ownMessageId, parseChatId } from './threads.js';

/** What sends a composed mail (nodemailer's transporter). */
export interface Mailer {
  sendMail(mail: SendMailOptions): Promise<unknown>;
}

export interface Sender {
  mailer: Mailer;
  /** the bot's address and the From's display name */
  address: string;
  fromName: string;
  /** smtp_retry_ms: the wait after a 4xx */
  retryMs: number;
  state: { get(key: string): string | undefined };
}

type Target = { chatId: string; idempotencyKey?: string | undefined };

/** The subject of a mail that starts a thread: the first line of its text, shortened. */
function firstLineSubject(text: string): string {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  const subject = line.replace(/\s+/g, ' ').trim();
  return subject.length > 70 ? `${subject.slice(0, 69)}…` : subject || 'A message';
}

/** The headers and addressing of a mail to `target`'s chat; an error SendResult when the chat is no address. */
function envelope(sender: Sender, target: Target, text: string): SendMailOptions | SendResult {
  const { address, threadKey } = parseChatId(target.chatId);
  if (!ADDRESS.test(address)) {
    return { ok: false, error: 'not_found', message: `not a mail address: ${address.slice(0, 80)}` };
  }
  const token = target.idempotencyKey ?? randomUUID();
  const thread = decodeChatThread(sender.state.get(chatStateKey(target.chatId)));
  const key = threadKey ?? newThreadKey(`${address}:${token}`);
  const domain = sender.address.split('@')[1] ?? 'localhost';
  const bracket = (id: string) => `<${id}>`;
  return {
    from: { name: sender.fromName, address: sender.address },
    to: address,
    subject: thread ? `Re: ${thread.subject || '(no subject)'}` : firstLineSubject(text),
    messageId: bracket(ownMessageId(key, token, domain)),
    ...(thread ? { inReplyTo: bracket(thread.last), references: thread.references.map(bracket) } : {}),
    headers: {
      // RFC 3834: an answer to a mail is auto-replied, a message the bot starts auto-generated
      'Auto-Submitted': thread ? 'auto-replied' : 'auto-generated',
      'X-Auto-Response-Suppress': 'All',
    },
  };
}

async function deliver(sender: Sender, mail: SendMailOptions): Promise<SendResult> {
  try {
    await sender.mailer.sendMail(mail);
    const id = typeof mail.messageId === 'string' ? mail.messageId.replace(/^<|>$/g, '') : '';
    return { ok: true, messageIds: [id] };
  } catch (error) {
    return toSendFailure(error, sender.retryMs);
  }
}

/** An answer (already plain text) as a mail in its thread. */
export async function sendText(sender: Sender, message: OutboundMessage): Promise<SendResult> {
  const mail = envelope(sender, message, message.text);
  if ('ok' in mail) return mail;
  return deliver(sender, { ...mail, text: message.text });
}

/** A file as an attachment of a mail in the thread (its bytes read here: nodemailer reads no paths). */
export async function sendFile(sender: Sender, media: OutboundMedia): Promise<SendResult> {
  const mail = envelope(sender, media, media.fileName);
  if ('ok' in mail) return mail;
  let content: Buffer;
  try {
    content = await readFile(media.path);
  } catch (error) {
    return { ok: false, error: 'bad_format', message: `cannot read ${media.fileName}: ${String(error)}` };
  }
  return deliver(sender, {
    ...mail,
    text: '',
    attachments: [{ filename: media.fileName, content, contentType: media.mimeType }],
  });
}

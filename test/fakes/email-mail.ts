// Mails as a mail client writes them, for the email fakes' tests: nodemailer's MailComposer builds
// the MIME (multipart with attachments, encoded words, References), the way Thunderbird or Gmail
// would send to the bot's mailbox.
import { randomUUID } from 'node:crypto';
import MailComposer from 'nodemailer/lib/mail-composer';

export interface TestMail {
  from: string;
  /** default: the bot */
  to?: string;
  subject?: string;
  text?: string;
  html?: string;
  /** the Message-ID without brackets (default: a fresh one); null: no Message-ID header */
  messageId?: string | null;
  inReplyTo?: string;
  references?: string[];
  headers?: Record<string, string>;
  attachments?: { filename: string; contentType: string; content: Buffer }[];
}

/** A fresh Message-ID (no brackets). */
export const newMessageId = (): string => `${randomUUID()}@client.example.test`;

/** The raw bytes of a mail; its Message-ID is returned too. */
export async function composeMail(
  mail: TestMail,
  bot = 'bot@example.test',
): Promise<{ raw: Buffer; messageId: string }> {
  const messageId = mail.messageId === undefined ? newMessageId() : mail.messageId;
  const composer = new MailComposer({
    from: mail.from,
    to: mail.to ?? bot,
    ...(mail.subject === undefined ? {} : { subject: mail.subject }),
    ...(mail.text === undefined ? {} : { text: mail.text }),
    ...(mail.html === undefined ? {} : { html: mail.html }),
    ...(messageId === null ? {} : { messageId: `<${messageId}>` }),
    ...(mail.inReplyTo === undefined ? {} : { inReplyTo: `<${mail.inReplyTo}>` }),
    ...(mail.references === undefined ? {} : { references: mail.references.map((r) => `<${r}>`) }),
    headers: mail.headers ?? {},
    attachments: mail.attachments ?? [],
  });
  let raw = await composer.compile().build();
  if (messageId === null) raw = Buffer.from(raw.toString('latin1').replace(/^Message-ID:.*\r\n/im, ''), 'latin1');
  return { raw, messageId: messageId ?? '' };
}

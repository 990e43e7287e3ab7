// Email in the chaos run: each chaos user writes to the bot's mailbox (the fake IMAP server, which
// the gateway reads in IDLE and resumes from its UIDVALIDITY and last UID after a restart), each
// message a reply to the user's previous one, so a user's mail is one thread (one chat, one session,
// `<address>#<thread>`); answers go out through the fake SMTP server. No groups. The 429 storm is
// SMTP's 451 (try later), the server errors its 421; a drop cuts the IMAP connections.
import { randomUUID } from 'node:crypto';
import { threadKeyOfRoot, threadOfOwnId } from '../../plugins/platforms/email/index.js';
import { type FakeImap, startFakeImap } from '../fakes/email-imap.js';
import { composeMail } from '../fakes/email-mail.js';
import { type FakeSmtp, type SmtpMail, startFakeSmtp } from '../fakes/email-smtp.js';
import type { ChaosPlatform } from './platforms.js';
import { streamAndSpare, users } from './platforms.js';

const BOT = 'bot@example.test';
const PASSWORD = 'chaos-app-password';

/** The chat a mail of the bot answers: its recipient and the thread its Message-ID names. */
function chatOf(mail: SmtpMail): string {
  const thread = threadOfOwnId(mail.parsed.messageId?.replace(/[<>]/g, '') ?? '');
  return thread === undefined ? (mail.to[0] ?? '') : `${mail.to[0]}#${thread}`;
}

export function emailPlatform(): ChaosPlatform {
  let imap: FakeImap | null = null;
  let smtp: FakeSmtp | null = null;
  let cursor = 0;
  let uploadCursor = 0;
  const need = () => {
    if (!imap || !smtp) throw new Error('email: start() first');
    return { imap, smtp };
  };
  const list = users((i) => `chaos${i}@example.test`);
  /** each user's thread so far (the first Message-ID is its root), and the mail being composed */
  const threads = new Map<string, string[]>();
  const composing = new Map<string, Promise<void>>();
  const texts = () => need().smtp.mails.filter((m) => m.files.length === 0);
  return {
    name: 'email',
    mode: 'polling',
    groups: false,
    ...streamAndSpare(list),
    async start() {
      imap = await startFakeImap({ user: BOT, password: PASSWORD });
      smtp = await startFakeSmtp({ user: BOT, password: PASSWORD });
    },
    async close() {
      await Promise.all(composing.values());
      await imap?.close();
      await smtp?.close();
    },
    env: () => ({
      EMAIL_ADDRESS: BOT,
      EMAIL_PASSWORD: PASSWORD,
      EMAIL_IMAP_HOST: '127.0.0.1',
      EMAIL_IMAP_PORT: String(need().imap.port),
      EMAIL_SMTP_HOST: '127.0.0.1',
      EMAIL_SMTP_PORT: String(need().smtp.port),
      EMAIL_ALLOWED_USERS: list.map((u) => u.id).join(','),
    }),
    // plain text to the loopback fakes; a refused send tried again after 1 s
    settings: () => ({ imap_security: 'none', smtp_security: 'none', smtp_retry_ms: 1_000 }),
    send(user, text, _group, key, photo) {
      const thread = threads.get(user.id) ?? [];
      const messageId = `chaos-m${key}.${randomUUID()}@example.test`;
      const last = thread.at(-1);
      threads.set(user.id, [...thread, messageId]);
      const root = thread[0] ?? messageId;
      // composing is asynchronous: a user's mails are delivered in the order they were written
      const before = composing.get(user.id) ?? Promise.resolve();
      const delivered = before.then(async () => {
        const { raw } = await composeMail(
          {
            from: `${user.name} <${user.id}>`,
            messageId,
            text,
            ...(photo
              ? { attachments: [{ filename: photo.fileName, contentType: photo.mimeType, content: photo.data }] }
              : {}),
            ...(last === undefined ? {} : { inReplyTo: last, references: thread }),
          },
          BOT,
        );
        need().imap.deliver(raw);
      });
      composing.set(user.id, delivered);
      return { chatId: `${user.id}#${threadKeyOfRoot(root)}` };
    },
    takeReplies() {
      const sent = texts();
      const out = sent
        .slice(cursor)
        .map((m) => ({ chatId: chatOf(m), text: (m.parsed.text ?? '').replace(/\n$/, '') }));
      cursor = sent.length;
      return out;
    },
    takeUploads() {
      const files = need().smtp.mails.filter((m) => m.files.length > 0);
      const out = files
        .slice(uploadCursor)
        .flatMap((m) => m.files.map((f) => ({ chatId: chatOf(m), text: f.fileName })));
      uploadCursor = files.length;
      return out;
    },
    replyCount: () => texts().length,
    rateLimitStorm(count) {
      need().smtp.deferNext(count);
    },
    serverErrors(count) {
      need().smtp.unavailableNext(count);
    },
    async dropConnection() {
      need().imap.dropConnections();
    },
    failuresAnswered() {
      const { deferred, unavailable } = need().smtp.refusals();
      return { rateLimited: deferred, serverErrors: unavailable };
    },
    tick() {},
  };
}

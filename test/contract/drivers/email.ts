// Contract driver for email (plugins/platforms/email) against the fake IMAP server (the mailbox the
// gateway reads in IDLE) and the fake SMTP server (every answer recorded). A user's messages form
// one thread (each a reply to the one before), so a test's messages share a chat and a session, as
// a conversation by mail does; a reset starts new threads. No edits (the streaming suite is
// skipped), no buttons (approvals by text; the clarify and cron-cancel button suites are skipped),
// no groups, and no cut pastes (the batching scenario is skipped). Strangers get the pairing flow
// by mail (`unknown_senders: pair`), as the pairing scenario needs.
import {
  EMAIL_CAPABILITIES,
  emailFactory,
  threadKeyOfRoot,
  threadOfOwnId,
} from '../../../plugins/platforms/email/index.js';
import { type FakeImap, startFakeImap } from '../../fakes/email-imap.js';
import { composeMail } from '../../fakes/email-mail.js';
import { type FakeSmtp, type SmtpMail, startFakeSmtp } from '../../fakes/email-smtp.js';
import type { ContractUser, InboundRef, PlatformDriver, SentFile, SentText } from '../driver.js';
import { eventually } from '../recorders.js';

const BOT = 'bot@example.test';
const PASSWORD = 'contract-app-password';

/** Where the bot's mail went: its recipient and the thread its Message-ID names. */
function chatOf(mail: SmtpMail): string {
  const id = mail.parsed.messageId?.replace(/[<>]/g, '') ?? '';
  const thread = threadOfOwnId(id);
  return thread === undefined ? (mail.to[0] ?? '') : `${mail.to[0]}#${thread}`;
}

/** The email driver: one mailbox over IMAP, one SMTP server. */
export function emailDriver(): PlatformDriver {
  let imap: FakeImap | null = null;
  let smtp: FakeSmtp | null = null;
  const need = () => {
    if (!imap || !smtp) throw new Error('email driver: start() first');
    return { imap, smtp };
  };
  /** each user's thread: the Message-IDs so far (the first is the root) */
  const threads = new Map<string, string[]>();

  async function send(
    user: ContractUser,
    text: string,
    attachments: { filename: string; contentType: string; content: Buffer }[] = [],
  ): Promise<InboundRef> {
    const thread = threads.get(user.id) ?? [];
    const last = thread.at(-1);
    const { raw, messageId } = await composeMail(
      {
        from: `${user.name} <${user.id}>`,
        text,
        attachments,
        ...(last === undefined ? {} : { inReplyTo: last, references: thread }),
      },
      BOT,
    );
    threads.set(user.id, [...thread, messageId]);
    need().imap.deliver(raw);
    return {
      messageId,
      chatId: `${user.id}#${threadKeyOfRoot(thread[0] ?? messageId)}`,
      redeliver: async () => {
        need().imap.deliver(raw);
      },
    };
  }

  return {
    platform: 'email',
    label: 'email (IMAP IDLE + SMTP)',
    factory: emailFactory,
    maxMessageLength: EMAIL_CAPABILITIES.maxMessageLength,
    // a mail client sends a long text as one mail: there is no cut paste to join
    noCutPastes: true,
    user: (index: number): ContractUser => ({ id: `user${index}@example.test`, name: `User${index}` }),
    async start() {
      imap = await startFakeImap({ user: BOT, password: PASSWORD });
      smtp = await startFakeSmtp({ user: BOT, password: PASSWORD });
    },
    async close() {
      await imap?.close();
      await smtp?.close();
    },
    reset() {
      need().imap.reset();
      need().smtp.reset();
      threads.clear();
    },
    env: (allowed) => ({
      EMAIL_ADDRESS: BOT,
      EMAIL_PASSWORD: PASSWORD,
      EMAIL_IMAP_HOST: '127.0.0.1',
      EMAIL_IMAP_PORT: String(need().imap.port),
      EMAIL_SMTP_HOST: '127.0.0.1',
      EMAIL_SMTP_PORT: String(need().smtp.port),
      EMAIL_ALLOWED_USERS: allowed.map((u) => u.id).join(','),
    }),
    // plain text to the loopback fakes; a 451 retried after 1 s (the contract's 429 scenario)
    settings: () => ({ imap_security: 'none', smtp_security: 'none', smtp_retry_ms: 1_000, unknown_senders: 'pair' }),
    useGatewayUrl() {},
    async waitReady() {
      await eventually(() => need().imap.idling() > 0, undefined, 'email driver: the mailbox in IDLE');
    },
    dm: (user, text) => send(user, text),
    dmFiles: (user, text, files) =>
      send(
        user,
        text,
        files.map((f) => ({ filename: f.name, contentType: f.mimeType, content: f.data })),
      ),
    sent: (): SentText[] =>
      need()
        .smtp.mails.filter((m) => m.files.length === 0)
        .map((m) => ({ chatId: chatOf(m), text: (m.parsed.text ?? '').replace(/\n$/, '') })),
    sentFiles: (): SentFile[] =>
      need().smtp.mails.flatMap((m) =>
        m.files.map((f) => ({
          chatId: chatOf(m),
          fileName: f.fileName,
          // a mail has no photo/document distinction: an image attachment shows inline in most readers
          kind: f.contentType.startsWith('image/') ? ('image' as const) : ('document' as const),
          size: f.data.length,
          sha256: f.sha256,
        })),
      ),
    failNextUpload() {
      need().smtp.refuseNextAttachment();
    },
    rateLimitNextSend() {
      need().smtp.deferNext();
    },
    async dropConnection() {
      need().imap.dropConnections();
    },
    connectionCount: () => need().imap.connectionsOpened(),
    openConnections: () => need().imap.openConnections(),
  };
}

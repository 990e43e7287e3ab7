// Email for the process benches: a fake IMAP server (the bot's mailbox, read in IDLE) and a fake
// SMTP server (the answers) in the bench process per system. Each chat is a user of its own address
// writing one thread: every mail after the first a reply to the one before (In-Reply-To, and
// References kept to the root and the last few ids, as mail clients trim them), composed by
// nodemailer as a mail client would and delivered to INBOX; the mails the SMTP server records are
// the replies. Bare: test/bench/bare/email-echo.ts (imapflow IDLE + mailparser + nodemailer).
import { startFakeImap } from '../fakes/email-imap.js';
import { composeMail } from '../fakes/email-mail.js';
import { type FakeSmtp, startFakeSmtp } from '../fakes/email-smtp.js';
import { watchPushes } from './push-watch.js';
import { closeAll, type PlatformRig, type RunningSystem, type StartOptions } from './rig.js';
import { benchUntil, startBareOrHermes } from './start-system.js';

const BOT = 'bot@example.test';
const PASSWORD = 'bench-app-password';
/** References a mail carries at most: the thread's root and the newest ones */
const MAX_REFERENCES = 10;

/** A bench chat: its sender's address and the Message-IDs of its thread so far (the first is the root). */
export interface EmailChat {
  address: string;
  thread: string[];
}

interface Servers {
  imapPort: number;
  smtp: FakeSmtp;
}

function startSystem(servers: Servers, options: StartOptions) {
  return startBareOrHermes(
    {
      sdk: 'bare imapflow + nodemailer',
      script: 'email-echo',
      bareEnv: {
        BENCH_EMAIL_ADDRESS: BOT,
        BENCH_EMAIL_PASSWORD: PASSWORD,
        BENCH_IMAP_PORT: String(servers.imapPort),
        BENCH_SMTP_PORT: String(servers.smtp.port),
      },
      hermes: {
        platform: 'email',
        // plain text to the loopback fakes
        settings: { imap_security: 'none', smtp_security: 'none' },
        env: {
          EMAIL_ADDRESS: BOT,
          EMAIL_PASSWORD: PASSWORD,
          EMAIL_IMAP_HOST: '127.0.0.1',
          EMAIL_IMAP_PORT: String(servers.imapPort),
          EMAIL_SMTP_HOST: '127.0.0.1',
          EMAIL_SMTP_PORT: String(servers.smtp.port),
          EMAIL_ALLOWED_USERS: '*',
        },
      },
    },
    options,
  );
}

export const emailRig: PlatformRig<EmailChat> = {
  platform: 'email',
  apiCalls: 'IMAP commands + SMTP mails',
  async start(options): Promise<RunningSystem<EmailChat>> {
    const closers: (() => Promise<void> | void)[] = [];
    try {
      const imap = await startFakeImap({ user: BOT, password: PASSWORD });
      closers.push(() => imap.close());
      const smtp = await startFakeSmtp({ user: BOT, password: PASSWORD });
      closers.push(() => smtp.close());
      const watch = watchPushes(smtp.mails, {
        keyOf: (mail) => mail.to[0] ?? '',
        textOf: (mail) => (mail.parsed.text ?? '').replace(/\n$/, ''),
      });
      closers.push(() => watch.restore());
      const { label, proc } = await startSystem({ imapPort: imap.port, smtp }, options);
      closers.push(() => proc.stop());
      // ready once the mailbox waits in IDLE (the bare bot's ready line says so; Hermes's "connected" comes just before)
      await benchUntil(`${label}: the mailbox in IDLE`, () => imap.idling() > 0).catch((error: unknown) => {
        throw new Error(`${String(error)}\n${proc.outputTail()}`);
      });
      let next = 0;
      return {
        kind: options.kind,
        label,
        proc,
        traffic: {
          // a chat sends its next mail once its previous one was answered: its thread is complete
          async send(chat, text) {
            const last = chat.thread.at(-1);
            const references = [...chat.thread.slice(0, 1), ...chat.thread.slice(1).slice(-(MAX_REFERENCES - 1))];
            const { raw, messageId } = await composeMail(
              {
                from: `${chat.address.split('@')[0]} <${chat.address}>`,
                subject: 'bench',
                text,
                ...(last === undefined ? {} : { inReplyTo: last, references }),
              },
              BOT,
            );
            chat.thread.push(messageId);
            imap.deliver(raw);
          },
          next: (chat, timeoutMs) => watch.next(chat.address, timeoutMs),
          newChat: () => ({ address: `bench${next++}@example.test`, thread: [] }),
          describe: (chat) => `email from ${chat.address}`,
        },
        takeApiCalls() {
          const calls = imap.commands.length + smtp.mails.length;
          imap.reset();
          smtp.reset();
          return calls;
        },
        unexpected: () => watch.unexpected,
        close: () => closeAll(closers),
      };
    } catch (error) {
      await closeAll(closers);
      throw error;
    }
  },
};

// The bare email baseline, as its own process, on the libraries Hermes's email adapter uses:
// imapflow waiting in IDLE on INBOX (a new mail's EXISTS wakes it; it fetches every mail after the
// last UID it read, marks them \Seen and goes back to IDLE), mailparser's simpleParser reading each
// mail, and nodemailer's SMTP transport (its defaults: a connection per mail) sending the answer
// (or, as the plain echo bot, a fixed text; see model.ts) as a reply in the mail's thread
// (In-Reply-To, References); the thread (its root Message-ID) is the chat whose history it keeps.
// Settings from the environment: BENCH_EMAIL_ADDRESS, BENCH_EMAIL_PASSWORD, BENCH_IMAP_PORT and
// BENCH_SMTP_PORT (on 127.0.0.1, plain text: loopback fakes), BENCH_MODEL_URL (…/v1).
// Prints {"ready":true} once the mailbox is open and watched.
import { ImapFlow } from 'imapflow';
import { simpleParser } from 'mailparser';
import { createTransport } from 'nodemailer';
import { announceReady, answerer, exitOnSignal, setting } from './model.js';

const ask = await answerer();
const address = setting('BENCH_EMAIL_ADDRESS');
const auth = { user: address, pass: setting('BENCH_EMAIL_PASSWORD') };
const transporter = createTransport({
  host: '127.0.0.1',
  port: Number(setting('BENCH_SMTP_PORT')),
  secure: false,
  ignoreTLS: true,
  auth,
});
const client = new ImapFlow({
  host: '127.0.0.1',
  port: Number(setting('BENCH_IMAP_PORT')),
  secure: false,
  auth,
  logger: false,
});

async function answer(source: Buffer): Promise<void> {
  const mail = await simpleParser(source);
  const from = mail.from?.value[0]?.address;
  if (from === undefined || mail.messageId === undefined) return;
  const references = typeof mail.references === 'string' ? [mail.references] : (mail.references ?? []);
  const root = references[0] ?? mail.messageId;
  const text = await ask(root, (mail.text ?? '').trim());
  await transporter.sendMail({
    from: address,
    to: from,
    subject: `Re: ${mail.subject ?? ''}`,
    text,
    inReplyTo: mail.messageId,
    references: [...references, mail.messageId],
  });
}

await client.connect();
let lastUid = (await client.mailboxOpen('INBOX')).uidNext - 1;
let reading = false;
let again = false;
/** Fetches the mails after lastUid (again while more arrived meanwhile), answers them, then IDLEs. */
async function readNew(): Promise<void> {
  if (reading) {
    again = true;
    return;
  }
  reading = true;
  try {
    do {
      again = false;
      const found: { uid: number; source: Buffer }[] = [];
      for await (const message of client.fetch(`${lastUid + 1}:*`, { uid: true, source: true }, { uid: true })) {
        if (message.uid > lastUid && message.source !== undefined) found.push(message as (typeof found)[number]);
      }
      if (found.length === 0) continue;
      lastUid = Math.max(...found.map((m) => m.uid));
      await client.messageFlagsAdd(found.map((m) => m.uid).join(','), ['\\Seen'], { uid: true });
      for (const mail of found) {
        answer(mail.source).catch((error: unknown) => process.stderr.write(`bare email bot: ${String(error)}\n`));
      }
    } while (again);
  } finally {
    reading = false;
  }
  // the next command (a fetch) ends IDLE
  client.idle().catch(() => {});
}
client.on('exists', () => {
  readNew().catch((error: unknown) => process.stderr.write(`bare email bot: ${String(error)}\n`));
});
await readNew();
announceReady();
exitOnSignal(async () => {
  await client.logout().catch(() => {});
  transporter.close();
});

// A fake SMTP submission server on 127.0.0.1, built on nodemailer's smtp-server: AUTH PLAIN/LOGIN
// checked against one user (no TLS: plain is for loopback tests only, allowInsecureAuth), every
// mail recorded with its envelope, raw bytes and mailparser's reading of it (headers, text,
// attachments). Tests script refusals as an SMTP server gives them: a temporary 451 (greylisting,
// rate limits: the client retries), a 552 for a mail with attachments (too large), a 535 login.
import { createHash } from 'node:crypto';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SmtpMail {
  from: string;
  to: string[];
  raw: Buffer;
  parsed: ParsedMail;
  /** a header's value as written (first one), lower-case name */
  header(name: string): string | undefined;
  /** the attachments: name, type, bytes and their sha256 */
  files: { fileName: string; contentType: string; data: Buffer; sha256: string }[];
}

export interface FakeSmtp {
  host: string;
  port: number;
  user: string;
  password: string;
  mails: SmtpMail[];
  /** every connection's AUTH user and outcome */
  logins: { user: string; ok: boolean }[];
  /** the next `count` mails are refused with a temporary `451 4.7.1` */
  deferNext(count?: number): void;
  /** the next `count` mails are refused with `421 4.3.2 Service not available` (a server's transient error) */
  unavailableNext(count?: number): void;
  /** mails refused so far as deferred (451) and as unavailable (421) */
  refusals(): { deferred: number; unavailable: number };
  /** the next mail with an attachment is refused `552 5.3.4` (too large) */
  refuseNextAttachment(): void;
  /** logins are refused `535 5.7.8` while true */
  refuseLogins(refuse: boolean): void;
  reset(): void;
  close(): Promise<void>;
}

function smtpError(code: number, message: string): Error & { responseCode: number } {
  return Object.assign(new Error(message), { responseCode: code });
}

export async function startFakeSmtp(options: { user?: string; password?: string } = {}): Promise<FakeSmtp> {
  const user = options.user ?? 'bot@example.test';
  const password = options.password ?? 'smtp-secret';
  const mails: SmtpMail[] = [];
  const logins: FakeSmtp['logins'] = [];
  let defer = 0;
  let unavailable = 0;
  const refused = { deferred: 0, unavailable: 0 };
  let refuseAttachment = false;
  let refusingLogins = false;

  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    size: 50 * 1024 * 1024,
    onAuth(auth, _session, callback) {
      const ok = !refusingLogins && auth.username === user && auth.password === password;
      logins.push({ user: auth.username ?? '', ok });
      if (!ok) return callback(smtpError(535, '5.7.8 Authentication credentials invalid'));
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw).then(
          (parsed) => {
            if (defer > 0) {
              defer -= 1;
              refused.deferred += 1;
              return callback(smtpError(451, '4.7.1 Try again later (rate limited)'));
            }
            if (unavailable > 0) {
              unavailable -= 1;
              refused.unavailable += 1;
              return callback(smtpError(421, '4.3.2 Service not available, closing transmission channel'));
            }
            if (refuseAttachment && parsed.attachments.length > 0) {
              refuseAttachment = false;
              return callback(smtpError(552, '5.3.4 Message size exceeds fixed limit'));
            }
            const headerLines = parsed.headerLines;
            mails.push({
              from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
              to: session.envelope.rcptTo.map((r) => r.address),
              raw,
              parsed,
              header: (name) => {
                const line = headerLines.find((h) => h.key === name.toLowerCase())?.line;
                return line
                  ?.slice(line.indexOf(':') + 1)
                  .replace(/\r?\n[ \t]+/g, ' ')
                  .trim();
              },
              files: parsed.attachments.map((a) => ({
                fileName: a.filename ?? '',
                contentType: a.contentType,
                data: a.content,
                sha256: createHash('sha256').update(a.content).digest('hex'),
              })),
            });
            callback(null, 'OK: queued');
          },
          (error: unknown) => callback(smtpError(554, `5.6.0 unparsable: ${String(error)}`)),
        );
      });
    },
  });
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  if (address === null || typeof address === 'string') throw new Error('fake smtp: no port');

  return {
    host: '127.0.0.1',
    port: address.port,
    user,
    password,
    mails,
    logins,
    deferNext(count = 1) {
      defer = count;
    },
    unavailableNext(count = 1) {
      unavailable = count;
    },
    refusals: () => ({ ...refused }),
    refuseNextAttachment() {
      refuseAttachment = true;
    },
    refuseLogins(refuse) {
      refusingLogins = refuse;
    },
    reset() {
      mails.length = 0;
      logins.length = 0;
      defer = 0;
      unavailable = 0;
      refused.deferred = 0;
      refused.unavailable = 0;
      refuseAttachment = false;
      refusingLogins = false;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

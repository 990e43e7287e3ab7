/**
 * The email PlatformAdapter: a mailbox read over IMAP (imapflow: IDLE for new mail, reconnection
 * and the resume point in mailbox.ts), answers sent over SMTP (nodemailer: send.ts). A mail is
 * parsed (mailparser), checked (loops, allowlist, read-mail.ts), its files stored in the
 * attachment cache and handed to the gateway with the resume point and its thread's record in the
 * same transaction; once taken it is marked \Seen. A thread is a chat: `<address>#<thread>`.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type AdapterDeps, createPlatformKit, isCached, storeCached } from '@hermes/plugin-sdk';
import type { InboundSink, PlatformAdapter, PlatformContext } from '@hermes/protocol';
import type { ImapFlow } from 'imapflow';
import { createTransport } from 'nodemailer';
import { EMAIL_CAPABILITIES } from './capabilities.js';
import { markdownToPlain } from './format/markdown-to-plain.js';
import { type NewMail, runMailboxLoop } from './mailbox.js';
import { parseMail } from './parse.js';
import { type PendingEmailFile, readMail } from './read-mail.js';
import { resumeState } from './resume.js';
import { type Sender, sendFile, sendText } from './send.js';
import { PLATFORM, readEmailSettings } from './settings.js';

export { EMAIL_CAPABILITIES } from './capabilities.js';

const listed = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

/** Creates the adapter: settings checked (a missing variable throws); nothing connects before start(). */
export function createEmailAdapter(context: PlatformContext, deps: AdapterDeps = {}): PlatformAdapter {
  const settings = readEmailSettings(context.settings, context.env);
  const { logger, env } = context;
  const secrets = [settings.imap.password, settings.smtp.password].filter((s) => s.length >= 4);
  const describe = (error: unknown): string => {
    let text = error instanceof Error ? error.message : String(error);
    // imapflow says only "Command failed" when the server refuses: its own words are in responseText
    const refusal = error as { responseText?: unknown; serverResponseCode?: unknown } | null;
    if (typeof refusal?.responseText === 'string' && refusal.responseText !== '') {
      const code = typeof refusal.serverResponseCode === 'string' ? `[${refusal.serverResponseCode}] ` : '';
      text = `${text}: ${code}${refusal.responseText}`;
    }
    for (const secret of secrets) text = text.split(secret).join('<password>');
    return text;
  };
  const kit = createPlatformKit(context, deps, {
    platform: PLATFORM,
    capabilities: EMAIL_CAPABILITIES,
    apiUrl: `http://${settings.smtp.host}`,
    holdsConnection: true,
    describe,
  });
  const { status, inFlight, now } = kit;
  const smtp = settings.smtp;
  const mailer = createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.security === 'tls',
    requireTLS: smtp.security === 'starttls',
    ignoreTLS: smtp.security === 'none',
    auth: { user: smtp.user, pass: smtp.password },
    connectionTimeout: 30_000,
    greetingTimeout: 30_000,
    socketTimeout: 120_000,
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  const sender: Sender = {
    mailer,
    address: settings.address,
    fromName: settings.fromName,
    retryMs: settings.smtpRetryMs,
    state: context.state,
  };
  // the gateway's own comparison (pipeline/allowlist.ts): an entry equal to the address, or `*`
  const allowlist = new Set([...listed(env.EMAIL_ALLOWED_USERS), ...listed(env.GATEWAY_ALLOWED_USERS)]);
  const allowAll = env.GATEWAY_ALLOW_ALL_USERS === 'true' || allowlist.has('*');
  for (const entry of allowlist) {
    if (entry !== entry.toLowerCase()) {
      logger.warn({ entry }, 'email: an allowlisted address has capitals; senders are compared in lower case');
    }
  }
  const attachments = kit.attachmentFetcher(async (file: PendingEmailFile) => {
    const dest = join(context.cacheDir, file.cacheName);
    if (await isCached(dest)) return dest;
    return storeCached(dest, (partial) => writeFile(partial, file.content));
  });
  let client: ImapFlow | undefined;

  /** One new mail: parsed, checked and accepted (true), or skipped with the reason logged (false). */
  async function take(mail: NewMail, sink: InboundSink, signal: AbortSignal): Promise<boolean> {
    const resume = resumeState(mail.uidValidity, mail.uid);
    const skipped = (reason: string, level: 'debug' | 'info' | 'warn' = 'info'): false => {
      logger[level]({ uid: mail.uid }, `email: skipped ${reason}`);
      for (const [key, value] of Object.entries(resume)) context.state.set(key, value);
      return false;
    };
    const bytes = mail.source ?? mail.headers;
    if (bytes === undefined) return skipped('a mail the server did not hand over', 'warn');
    let parsed: Awaited<ReturnType<typeof parseMail>>;
    try {
      parsed = await parseMail(bytes);
    } catch (error) {
      return skipped(`a mail that could not be parsed (${describe(error)})`, 'warn');
    }
    const tooLarge = mail.source === undefined ? { size: mail.size, maxBytes: settings.maxMailBytes } : undefined;
    const inbound = readMail(
      parsed,
      bytes,
      {
        own: settings.address,
        receivedAt: now(),
        allowlisted: (address) => allowAll || allowlist.has(address),
        unknownSenders: settings.unknownSenders,
        requireDmarcPass: settings.requireDmarcPass,
        uid: mail.uid,
      },
      tooLarge,
    );
    if (inbound.kind === 'skip') return skipped(inbound.reason, inbound.routine ? 'debug' : 'info');
    if (tooLarge !== undefined) {
      logger.warn({ uid: mail.uid, size: mail.size }, 'email: a mail over max_mail_bytes; only its headers were read');
    }
    const { event, files, chatState } = inbound;
    const fetched = await attachments.fetchAll(
      files,
      signal,
      (file) => ({ messageId: event.messageId, file: file.fileName }),
      event.source.userId, // a stranger's files are not stored
    );
    if (!fetched) throw new Error(`email: stopped before mail ${mail.uid} was delivered`);
    await sink.accept(event, { state: { ...resume, [chatState.key]: chatState.value } });
    return true;
  }

  return kit.adapter({
    intake: (sink, signal) =>
      runMailboxLoop({
        settings,
        logger,
        status,
        describe,
        state: context.state,
        take: (mail) => take(mail, sink, signal),
        sleep: kit.sleep,
        random: kit.random,
        signal,
        onClient: (c) => {
          client = c;
        },
      }),
    // a wait in IDLE ends when its connection closes
    closing: async () => {
      client?.close();
    },
    stopped: () => mailer.close(),
    send: (message) => inFlight.track(sendText(sender, message)),
    sendMedia: (media) => inFlight.track(sendFile(sender, media)),
    format: markdownToPlain,
  });
}

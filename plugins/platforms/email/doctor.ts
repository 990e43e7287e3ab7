/**
 * `hermes doctor`'s check of the mailbox: an IMAP login that opens the mailbox read-only (EXAMINE)
 * and logs out, then an SMTP handshake with login (nodemailer's verify: no mail is sent). Either
 * failing fails the check with the server's reason; the password is never part of the detail.
 */
import { ImapFlow } from 'imapflow';
import { createTransport } from 'nodemailer';
import { imapOptions } from './mailbox.js';
import type { EmailSettings } from './settings.js';

export interface DoctorResult {
  ok: boolean;
  detail: string;
}

const PROBE_TIMEOUT_MS = 10_000;

function reason(error: unknown, secrets: readonly string[]): string {
  const e = error as { responseText?: unknown; response?: unknown; code?: unknown; message?: unknown } | null;
  const said =
    (typeof e?.responseText === 'string' && e.responseText) ||
    (typeof e?.response === 'string' && e.response) ||
    (typeof e?.message === 'string' && e.message) ||
    String(error);
  const code = typeof e?.code === 'string' ? `${e.code}: ` : '';
  let text = `${code}${said}`.slice(0, 200);
  for (const secret of secrets) if (secret !== '') text = text.split(secret).join('<password>');
  return text;
}

async function checkImap(settings: EmailSettings): Promise<string> {
  const client = new ImapFlow({ ...imapOptions(settings), connectionTimeout: PROBE_TIMEOUT_MS });
  client.on('error', () => {});
  try {
    await client.connect();
    const box = await client.mailboxOpen(settings.mailbox, { readOnly: true });
    await client.logout();
    return `${settings.mailbox} has ${box.exists} mail(s)`;
  } finally {
    client.close();
  }
}

async function checkSmtp(settings: EmailSettings): Promise<void> {
  const { smtp } = settings;
  const transport = createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.security === 'tls',
    requireTLS: smtp.security === 'starttls',
    ignoreTLS: smtp.security === 'none',
    auth: { user: smtp.user, pass: smtp.password },
    connectionTimeout: PROBE_TIMEOUT_MS,
    greetingTimeout: PROBE_TIMEOUT_MS,
    socketTimeout: PROBE_TIMEOUT_MS,
  });
  try {
    await transport.verify();
  } finally {
    transport.close();
  }
}

/** Logs in over IMAP and SMTP with the settings the gateway would use. */
export async function checkMailbox(settings: EmailSettings): Promise<DoctorResult> {
  const { imap, smtp } = settings;
  const secrets = [imap.password, smtp.password];
  let mailbox: string;
  try {
    mailbox = await checkImap(settings);
  } catch (error) {
    return { ok: false, detail: `IMAP ${imap.host}:${imap.port} (${imap.user}): ${reason(error, secrets)}` };
  }
  try {
    await checkSmtp(settings);
  } catch (error) {
    return { ok: false, detail: `SMTP ${smtp.host}:${smtp.port} (${smtp.user}): ${reason(error, secrets)}` };
  }
  return {
    ok: true,
    detail: `IMAP login to ${imap.host}:${imap.port} (${mailbox}), SMTP login to ${smtp.host}:${smtp.port} as ${smtp.user}`,
  };
}

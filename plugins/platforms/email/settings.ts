/**
 * The email adapter's settings: the mailbox and the servers from the environment (credentials
 * never in config.yaml), behaviour from `gateway.platforms.email.*`. TLS is on by default (implicit
 * TLS on ports 993 and 465, STARTTLS required elsewhere); `none` (plain text) is refused for a host
 * that is not a loopback address unless `allow_insecure` says so, since the password would cross
 * the network in the clear.
 */
import { envValue, type RawSettings, settingsReader } from '@hermes/plugin-sdk';
import { isLoopbackHost } from '@hermes/protocol';

export const PLATFORM = 'email';

export type Security = 'tls' | 'starttls' | 'none';
const SECURITY: readonly Security[] = ['tls', 'starttls', 'none'];

/** What the gateway does with a mail from an address no allowlist names. */
export type UnknownSenders = 'ignore' | 'pair';

export const DEFAULT_MAX_MAIL_BYTES = 25 * 1024 * 1024;
export const DEFAULT_SMTP_RETRY_MS = 10_000;

export interface ServerSettings {
  host: string;
  port: number;
  security: Security;
  user: string;
  password: string;
}

export interface EmailSettings {
  /** EMAIL_ADDRESS: the bot's own address, lower case (the From of its answers) */
  address: string;
  imap: ServerSettings;
  smtp: ServerSettings;
  /** the folder read (`mailbox`, default INBOX) */
  mailbox: string;
  /** the display name of the answers' From (`from_name`) */
  fromName: string;
  /** `unknown_senders`: ignore (default) or answer with a pairing code */
  unknownSenders: UnknownSenders;
  /** `require_dmarc_pass`: a mail counts only when the receiving server's Authentication-Results says dmarc=pass */
  requireDmarcPass: boolean;
  /** a mail larger than this is not downloaded (`max_mail_bytes`) */
  maxMailBytes: number;
  /** how long to wait before sending again after the SMTP server refused for now (a 4xx) */
  smtpRetryMs: number;
}

type Env = Readonly<Record<string, string | undefined>>;

/** A well-formed address, `local@domain` (no display name, no spaces). */
export const ADDRESS = /^[^\s@<>()",;:]+@[^\s@<>()",;:]+\.[^\s@<>()",;:]+$|^[^\s@<>()",;:]+@localhost$/i;

function port(env: Env, name: string, fallback: number): number {
  const raw = envValue(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 65_535) {
    throw new TypeError(`email: ${name} must be a port number (1 to 65535), got "${raw}"`);
  }
  return value;
}

function security(value: string | undefined, key: string): Security | undefined {
  if (value === undefined) return undefined;
  const known = SECURITY.find((s) => s === value);
  if (known === undefined) throw new TypeError(`${key}: expected one of "tls", "starttls", "none", got "${value}"`);
  return known;
}

function required(env: Env, name: string, what: string): string {
  const value = envValue(env, name);
  if (value === undefined) throw new TypeError(`email: ${name} is not set (${what})`);
  return value;
}

/**
 * The server of one protocol: `EMAIL_<P>_HOST`, `_PORT`, `_USER`, `_PASSWORD`; `security` is the
 * `<p>_security` setting (undefined: TLS on the implicit-TLS port, else STARTTLS required).
 */
function server(
  env: Env,
  read: ReturnType<typeof settingsReader>,
  proto: 'imap' | 'smtp',
  configured: Security | undefined,
  base: { address: string; password: string; allowInsecure: boolean },
): ServerSettings {
  const upper = proto.toUpperCase();
  const host = required(env, `EMAIL_${upper}_HOST`, `the ${upper} server's host name`);
  const implicitTlsPort = proto === 'imap' ? 993 : 465;
  const portNumber = port(env, `EMAIL_${upper}_PORT`, implicitTlsPort);
  const security = configured ?? (portNumber === implicitTlsPort ? 'tls' : 'starttls');
  if (security === 'none' && !isLoopbackHost(host.replace(/^\[|\]$/g, '')) && !base.allowInsecure) {
    throw new TypeError(
      `${read.keyName(`${proto}_security`)}: "none" sends the password in the clear; it is allowed only to a loopback ` +
        `host (${host} is not) unless ${read.keyName('allow_insecure')} is true`,
    );
  }
  return {
    host,
    port: portNumber,
    security,
    user: envValue(env, `EMAIL_${upper}_USER`) ?? base.address,
    password: envValue(env, `EMAIL_${upper}_PASSWORD`) ?? base.password,
  };
}

/** Reads and checks the settings; a wrong value or a missing variable throws a TypeError naming it. */
export function readEmailSettings(settings: RawSettings, env: Env): EmailSettings {
  const read = settingsReader(settings, PLATFORM);
  const address = required(env, 'EMAIL_ADDRESS', "the bot's mail address").toLowerCase();
  if (!ADDRESS.test(address)) throw new TypeError(`email: EMAIL_ADDRESS must be a plain address, got "${address}"`);
  const password = required(env, 'EMAIL_PASSWORD', "the mailbox's password or app password");
  const base = { address, password, allowInsecure: read.boolean('allow_insecure', false) };
  const mailbox = read.string('mailbox') ?? 'INBOX';
  if (/[\r\n]/.test(mailbox)) throw new TypeError(`${read.keyName('mailbox')}: expected one line`);
  const fromName = read.string('from_name') ?? 'Hermes';
  if (/[\r\n]/.test(fromName)) throw new TypeError(`${read.keyName('from_name')}: expected one line`);
  return {
    address,
    imap: server(env, read, 'imap', security(read.string('imap_security'), read.keyName('imap_security')), base),
    smtp: server(env, read, 'smtp', security(read.string('smtp_security'), read.keyName('smtp_security')), base),
    mailbox,
    fromName,
    unknownSenders: read.oneOf('unknown_senders', ['ignore', 'pair'] as const, 'ignore'),
    requireDmarcPass: read.boolean('require_dmarc_pass', false),
    maxMailBytes: read.integer('max_mail_bytes', DEFAULT_MAX_MAIL_BYTES, { min: 1024, unit: 'bytes' }),
    smtpRetryMs: read.integer('smtp_retry_ms', DEFAULT_SMTP_RETRY_MS, { min: 100, max: 600_000, unit: 'ms' }),
  };
}

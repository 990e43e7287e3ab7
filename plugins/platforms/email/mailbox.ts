/**
 * The IMAP side, the one owner of reconnection: one imapflow connection that logs in, opens the
 * mailbox, reads every mail after the resume point (resume.ts) one at a time, then waits in IDLE
 * until the server says a mail arrived (EXISTS), the connection drops, or a re-check is due (every
 * few minutes: a fetch restarts IDLE, which servers end after 30 minutes). When the connection
 * fails or closes it is opened again after backoffDelayMs (status `error` meanwhile, `connected`
 * once the mailbox is open again). A mail larger than `max_mail_bytes` is not downloaded: only its
 * headers are, for the log.
 */
import { backoffDelayMs, type Sleep, type StatusTracker } from '@hermes/plugin-sdk';
import type { Logger } from '@hermes/protocol';
import { ImapFlow } from 'imapflow';
import { LAST_UID_KEY, resumeStart } from './resume.js';
import type { EmailSettings } from './settings.js';

/** how long IDLE waits before the mailbox is looked at anyway */
export const RECHECK_MS = 4 * 60 * 1000;

/** One mail found after the resume point. */
export interface NewMail {
  uid: number;
  uidValidity: string;
  /** its bytes, or undefined when it is over max_mail_bytes (then `headers` are given) */
  source: Buffer | undefined;
  headers: Buffer | undefined;
  size: number;
}

export interface MailboxLoopDeps {
  settings: EmailSettings;
  logger: Logger;
  status: StatusTracker;
  describe: (error: unknown) => string;
  state: { get(key: string): string | undefined; set(key: string, value: string): void };
  /** hands one mail over: true when the gateway took it (then it is marked \Seen); the resume point moves either way */
  take(mail: NewMail): Promise<boolean>;
  sleep: Sleep;
  random: () => number;
  signal: AbortSignal;
  /** the connection of the moment (stop() closes it to end a wait) */
  onClient?(client: ImapFlow | undefined): void;
}

/** imapflow's options for the settings: TLS as configured, no library logging, IDLE driven here. */
export function imapOptions(settings: EmailSettings): ConstructorParameters<typeof ImapFlow>[0] {
  const { imap } = settings;
  return {
    host: imap.host,
    port: imap.port,
    secure: imap.security === 'tls',
    ...(imap.security === 'tls' ? {} : { doSTARTTLS: imap.security === 'starttls' }),
    auth: { user: imap.user, pass: imap.password },
    logger: false,
    disableAutoIdle: true,
    connectionTimeout: 30_000,
    greetingTimeout: 15_000,
    socketTimeout: 10 * 60 * 1000,
  };
}

/** A wake-up the wait between fetches resolves on: a mail arrived, the connection closed, or time passed. */
function waker() {
  let pending = false;
  let resolve: (() => void) | undefined;
  return {
    wake() {
      pending = true;
      resolve?.();
    },
    wait(ms: number, signal: AbortSignal): Promise<void> {
      if (pending || signal.aborted) return Promise.resolve();
      return new Promise<void>((done) => {
        const finish = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', finish);
          resolve = undefined;
          done();
        };
        const timer = setTimeout(finish, ms);
        signal.addEventListener('abort', finish, { once: true });
        resolve = finish;
      });
    },
    clear() {
      pending = false;
    },
  };
}

/** Reads the mails with a UID above `lastUid`, oldest first; returns the new resume point. */
async function drain(client: ImapFlow, deps: MailboxLoopDeps, uidValidity: string, lastUid: number): Promise<number> {
  const found: { uid: number; size: number; deleted: boolean }[] = [];
  // `n:*` names the newest mail even when its UID is below n: only UIDs above lastUid count
  for await (const m of client.fetch(`${lastUid + 1}:*`, { uid: true, size: true, flags: true }, { uid: true })) {
    if (m.uid > lastUid) found.push({ uid: m.uid, size: m.size ?? 0, deleted: m.flags?.has('\\Deleted') === true });
  }
  found.sort((a, b) => a.uid - b.uid);
  let last = lastUid;
  for (const mail of found) {
    if (deps.signal.aborted) break;
    await readOne(client, deps, uidValidity, mail);
    last = mail.uid;
  }
  return last;
}

async function readOne(
  client: ImapFlow,
  deps: MailboxLoopDeps,
  uidValidity: string,
  mail: { uid: number; size: number; deleted: boolean },
): Promise<void> {
  const { uid, size } = mail;
  if (mail.deleted) {
    deps.state.set(LAST_UID_KEY, String(uid));
    return;
  }
  const large = size > deps.settings.maxMailBytes;
  const fetched = await client.fetchOne(
    String(uid),
    large ? { uid: true, headers: true } : { uid: true, source: true },
    {
      uid: true,
    },
  );
  const taken = await deps.take({
    uid,
    uidValidity,
    size,
    source: large || fetched === false ? undefined : fetched.source,
    headers: fetched === false ? undefined : fetched.headers,
  });
  if (taken) {
    try {
      await client.messageFlagsAdd(String(uid), ['\\Seen'], { uid: true });
    } catch (error) {
      deps.logger.warn({ uid, error: deps.describe(error) }, 'email: could not mark the mail \\Seen');
    }
  }
}

/** Unread mail below the resume point of a renumbered mailbox: read once more (taken mail is \Seen). */
async function unreadBefore(client: ImapFlow, lastUid: number): Promise<number[]> {
  if (lastUid < 1) return [];
  const uids = await client.search({ seen: false, uid: `1:${lastUid}` }, { uid: true });
  return (uids === false || uids === undefined ? [] : uids).filter((uid) => uid <= lastUid).sort((a, b) => a - b);
}

/** One connection: open, read, wait, until it fails or the loop stops. */
async function session(deps: MailboxLoopDeps, connected: () => void): Promise<void> {
  const { settings, signal, logger } = deps;
  const client = new ImapFlow(imapOptions(settings));
  const wake = waker();
  let lastError: unknown;
  client.on('error', (error: unknown) => {
    lastError = error;
  });
  client.on('exists', () => wake.wake());
  client.on('close', () => wake.wake());
  deps.onClient?.(client);
  try {
    await client.connect();
    const box = await client.mailboxOpen(settings.mailbox);
    const uidValidity = String(box.uidValidity);
    const start = resumeStart(deps.state, uidValidity, box.uidNext);
    connected();
    let lastUid = start.lastUid;
    if (start.kind === 'renumbered') {
      logger.warn(
        { mailbox: settings.mailbox, was: start.was, now: uidValidity },
        'email: the mailbox was renumbered (UIDVALIDITY changed); its unread mail is read again',
      );
      for (const uid of await unreadBefore(client, lastUid)) {
        await readOne(client, deps, uidValidity, { uid, size: 0, deleted: false });
      }
    }
    while (!signal.aborted) {
      wake.clear();
      lastUid = await drain(client, deps, uidValidity, lastUid);
      if (!client.usable) break;
      const idling = client.idle().catch(() => undefined);
      await wake.wait(RECHECK_MS, signal);
      if (!client.usable) break;
      void idling; // the next fetch ends IDLE
    }
    if (signal.aborted) return;
    throw lastError ?? new Error('the IMAP connection closed');
  } finally {
    deps.onClient?.(undefined);
    client.close();
  }
}

/** Runs until the signal aborts: connects, reads, reconnects with backoff. */
export async function runMailboxLoop(deps: MailboxLoopDeps): Promise<void> {
  const { signal, status } = deps;
  let failures = 0;
  while (!signal.aborted) {
    try {
      await session(deps, () => {
        failures = 0;
        status.set('connected');
      });
    } catch (error) {
      if (signal.aborted) return;
      failures += 1;
      status.set('error', deps.describe(error));
      await deps.sleep(backoffDelayMs(failures, deps.random), signal);
    }
  }
}

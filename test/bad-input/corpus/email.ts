// Mail delivered to the bot's mailbox (the fake IMAP server): hand-written malformed MIME, unknown
// and odd charsets, huge mails (over max_mail_bytes: headers only), hostile headers and
// Message-IDs, mails without Message-ID, forged loops (auto-replies, lists, bounces, the bot
// itself), strangers, and seeded mutations of a real mail as a client writes it.
import { createHash } from 'node:crypto';
import { normalizeMessageId } from '../../../plugins/platforms/email/threads.js';
import { NASTY_STRINGS } from '../lib/nasty.js';
import { EXTRA_USERS } from '../lib/platforms.js';
import type { Rng } from '../lib/prng.js';

export const MAIL_BOT = 'hermes@bad-input.test';
export const MAIL_ALLOWED = 'ada@bad-input.test';
export const mailExtraUser = (i: number): string => `extra${i % EXTRA_USERS}@bad-input.test`;
export const MAIL_ALLOWED_USERS = [MAIL_ALLOWED, ...Array.from({ length: EXTRA_USERS }, (_, i) => mailExtraUser(i))];
/** the daemon's max_mail_bytes: a mail over it is read by its headers only */
export const MAIL_MAX_BYTES = 512 * 1024;

export interface MailCase {
  label: string;
  raw: Buffer;
  /** the inbox key of a mail that must be answered */
  answerKey?: string;
  /** the inbox key of a mail that must never reach the gateway (a loop, a stranger) */
  refusedKey?: string;
}

let serial = 0;
const id = (label: string) => `bad-${++serial}-${label}@client.bad-input.test`;

/** A plain mail as a client writes it; `headers` are added (or replace same-named defaults) verbatim. */
export function mailText(
  from: string,
  text: string,
  options: { messageId?: string | null; headers?: string[]; subject?: string; contentType?: string } = {},
): { raw: Buffer; key: string } {
  const messageId = options.messageId === undefined ? id('plain') : options.messageId;
  const lines = [
    `From: ${from}`,
    `To: ${MAIL_BOT}`,
    `Subject: ${options.subject ?? 'bad input'}`,
    'Date: Sat, 06 Jun 2026 10:00:00 +0000',
    ...(messageId === null ? [] : [`Message-ID: <${messageId}>`]),
    'MIME-Version: 1.0',
    `Content-Type: ${options.contentType ?? 'text/plain; charset=utf-8'}`,
    ...(options.headers ?? []),
    '',
    text,
    '',
  ];
  const raw = Buffer.from(lines.join('\r\n'), 'utf8');
  const key =
    messageId === null
      ? `sha256-${createHash('sha256').update(raw).digest('hex').slice(0, 32)}`
      : (normalizeMessageId(`<${messageId}>`) ?? '');
  return { raw, key };
}

const bytes = (text: string) => Buffer.from(text.replace(/\n/g, '\r\n'), 'latin1');

/** Mails that must be answered (each its own sender: a session of its own). */
function answered(): MailCase[] {
  let n = 0;
  const user = () => mailExtraUser(n++);
  const cases: MailCase[] = [];
  const add = (label: string, mail: { raw: Buffer; key: string }) =>
    cases.push({ label, raw: mail.raw, answerKey: mail.key });
  add('no Message-ID (named by its bytes)', mailText(user(), 'a mail without a Message-ID', { messageId: null }));
  add('an unknown charset', mailText(user(), 'hello in klingon', { contentType: 'text/plain; charset=x-klingon-9' }));
  add('charset windows-1252 with 8-bit bytes', {
    ...mailText(user(), 'placeholder'),
    raw: bytes(
      `From: ${user()}\nTo: ${MAIL_BOT}\nMessage-ID: <cp1252@bad>\nContent-Type: text/plain; charset=windows-1252\n\ncaf\u00e9 \u0093quoted\u0094\n`,
    ),
    key: 'cp1252@bad',
  });
  add(
    'ISO-2022-JP',
    mailText(user(), '\u001b$B$3$s$K$A$O\u001b(B', { contentType: 'text/plain; charset=iso-2022-jp' }),
  );
  add(
    'encoded words in an unknown charset',
    mailText(user(), 'subject in klingon', { subject: '=?x-klingon?B?aGVsbG8=?=' }),
  );
  add(
    'a 10,000-character Message-ID (named by its hash)',
    mailText(user(), 'long id', { messageId: `${'x'.repeat(10_000)}@bad` }),
  );
  add(
    '5,000 References',
    mailText(user(), 'a long thread', {
      headers: [`References: ${Array.from({ length: 5_000 }, (_, i) => `<r${i}@bad>`).join(' ')}`],
    }),
  );
  add('garbage In-Reply-To', mailText(user(), 'odd reply', { headers: ['In-Reply-To: <<<>>> <@> not an id'] }));
  add(
    '2,000 extra headers',
    mailText(user(), 'many headers', {
      headers: Array.from({ length: 2_000 }, (_, i) => `X-Filler-${i}: ${'v'.repeat(40)}`),
    }),
  );
  add('a 100 KB subject', mailText(user(), 'long subject', { subject: 's'.repeat(100_000) }));
  add('a 400 KB body (under max_mail_bytes)', mailText(user(), 'lorem ipsum '.repeat(34_000)));
  add(
    'HTML with scripts, styles and 500 nested divs',
    mailText(
      user(),
      `<script>alert(1)</script><style>p{}</style>${'<div>'.repeat(500)}deep html${'</div>'.repeat(500)}`,
      { contentType: 'text/html; charset=utf-8' },
    ),
  );
  add(
    'a huge mail (over max_mail_bytes: headers only)',
    mailText(user(), `huge ${'A'.repeat(MAIL_MAX_BYTES + 10_000)}`),
  );
  add(
    'multipart whose boundary never closes',
    mailText(user(), '--b\r\nContent-Type: text/plain\r\n\r\nunclosed part', {
      contentType: 'multipart/mixed; boundary="b"',
    }),
  );
  add(
    'an attachment with broken base64',
    mailText(
      user(),
      '--b\r\nContent-Type: text/plain\r\n\r\nsee file\r\n--b\r\nContent-Type: application/pdf; name="x.pdf"\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!not*base64***\r\n--b--',
      { contentType: 'multipart/mixed; boundary="b"' },
    ),
  );
  add(
    'a quoted-printable body with bad escapes',
    mailText(user(), 'soft=\r\nbreak =ZZ =\r\n=E9t=C3=A9', {
      headers: ['Content-Transfer-Encoding: quoted-printable'],
    }),
  );
  for (const [i, nasty] of NASTY_STRINGS.slice(0, 12).entries())
    add(`a nasty text #${i}`, mailText(user(), `nasty ${nasty}`));
  return cases;
}

/** Mails that must never reach the gateway: loops, bounces, lists, the bot itself, strangers, no sender. */
function refused(): MailCase[] {
  const loops: [string, string[], string?][] = [
    ['Auto-Submitted: auto-replied', ['Auto-Submitted: auto-replied']],
    ['Auto-Submitted: auto-generated (a forged vacation notice)', ['Auto-Submitted: auto-generated; type=vacation']],
    ['Precedence: bulk', ['Precedence: bulk']],
    ['Precedence: junk', ['Precedence: junk']],
    ['Precedence: list', ['Precedence: list']],
    ['X-Auto-Response-Suppress: All', ['X-Auto-Response-Suppress: All']],
    ['List-Id', ['List-Id: Team <team.lists.bad-input.test>']],
    ['List-Unsubscribe', ['List-Unsubscribe: <mailto:unsub@bad-input.test>']],
    ['X-Autoreply', ['X-Autoreply: yes']],
    ['an empty Return-Path (a bounce)', ['Return-Path: <>']],
    ['a delivery report', [], 'multipart/report; report-type=delivery-status; boundary="r"'],
  ];
  const cases: MailCase[] = loops.map(([label, headers, contentType], i) => {
    const mail = mailText(mailExtraUser(40 + i), `loop ${label}`, { headers, ...(contentType ? { contentType } : {}) });
    return { label: `forged loop: ${label}`, raw: mail.raw, refusedKey: mail.key };
  });
  for (const from of [
    'MAILER-DAEMON@bad-input.test',
    'postmaster@bad-input.test',
    'no-reply@bad-input.test',
    MAIL_BOT,
  ]) {
    const mail = mailText(from, 'machine mail');
    cases.push({ label: `from ${from}`, raw: mail.raw, refusedKey: mail.key });
  }
  const stranger = mailText('mallory@elsewhere.test', 'let me in');
  cases.push({ label: 'a stranger (unknown_senders ignore)', raw: stranger.raw, refusedKey: stranger.key });
  const noFrom = mailText('x', 'no sender');
  cases.push({
    label: 'no From header',
    raw: Buffer.from(noFrom.raw.toString('utf8').replace(/^From: x\r\n/, '')),
    refusedKey: noFrom.key,
  });
  const badFrom = mailText('"<<>>" <@@@>', 'malformed sender');
  cases.push({ label: 'a malformed From', raw: badFrom.raw, refusedKey: badFrom.key });
  return cases;
}

/** Malformed beyond reading: whatever comes of them, the daemon must go on (the canary says so). */
function garbage(): MailCase[] {
  return [
    { label: 'no headers at all', raw: Buffer.from('just some text\r\nwithout headers\r\n') },
    {
      label: 'NUL and control bytes in headers',
      raw: Buffer.from(`From: ${MAIL_ALLOWED}\u0000\u0001\r\nSub\u0000ject: x\r\n\r\nbody\r\n`),
    },
    { label: 'random binary', raw: Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)) },
    { label: 'a header without a colon first', raw: Buffer.from(`garbage line\r\nFrom: ${MAIL_ALLOWED}\r\n\r\nx\r\n`) },
    { label: 'an empty mail', raw: Buffer.alloc(0) },
    {
      label: 'multipart without a boundary parameter',
      raw: mailText(MAIL_ALLOWED, 'no boundary', { contentType: 'multipart/mixed' }).raw,
    },
    {
      label: '200 nested multiparts',
      raw: Buffer.from(
        `From: ${MAIL_ALLOWED}\r\nMessage-ID: <nested@bad>\r\n${Array.from({ length: 200 }, (_, i) => `Content-Type: multipart/mixed; boundary="n${i}"\r\n\r\n--n${i}\r\n`).join('')}Content-Type: text/plain\r\n\r\ndeep\r\n`,
      ),
    },
  ];
}

/** Seeded mutations of a client's mail: lines dropped or doubled, bytes flipped, cut short, nasty values. */
function generated(rng: Rng, count: number): MailCase[] {
  const cases: MailCase[] = [];
  for (let i = 0; i < count; i++) {
    const base = mailText(mailExtraUser(60 + (i % 20)), `generated ${i}`, { headers: [`References: <g${i}@bad>`] });
    let lines = base.raw.toString('latin1').split('\r\n');
    const kind = rng.pick(['drop', 'double', 'flip', 'cut', 'nasty', 'charset'] as const);
    if (kind === 'drop') lines.splice(rng.int(0, lines.length - 1), 1);
    if (kind === 'double') {
      const at = rng.int(0, lines.length - 1);
      lines.splice(at, 0, lines[at] ?? '');
    }
    let raw = Buffer.from(lines.join('\r\n'), 'latin1');
    if (kind === 'flip') {
      raw = Buffer.from(raw);
      for (let k = 0; k < 8; k++) raw[rng.int(0, raw.length - 1)] = rng.int(0, 255);
    }
    if (kind === 'cut') raw = raw.subarray(0, rng.int(1, raw.length - 1));
    if (kind === 'nasty') {
      lines = lines.map((l) => (l.startsWith('Subject:') ? `Subject: ${rng.pick(NASTY_STRINGS)}` : l));
      raw = Buffer.from(lines.join('\r\n'), 'utf8');
    }
    if (kind === 'charset') {
      const charset = rng.pick(['x-unknown', 'utf-16', 'utf-32le', 'gb18030', 'koi8-r', '"', 'utf-8"; x="']);
      raw = Buffer.from(base.raw.toString('latin1').replace('charset=utf-8', `charset=${charset}`), 'latin1');
    }
    cases.push({ label: `generated #${i} (${kind})`, raw });
  }
  return cases;
}

/** Every mail of the corpus but the redeliveries and drops (the test adds those). */
export function emailCorpus(rng: Rng, generatedCount: number): MailCase[] {
  return [...answered(), ...refused(), ...garbage(), ...generated(rng, generatedCount)];
}

// The email adapter against the fake IMAP and SMTP servers: mail read from IDLE pushes, the resume
// point in platform state (a restart answers each mail once), \Seen after the accept, the thread's
// answer with In-Reply-To/References/Re:, files in and out, loops and strangers skipped, a dropped
// connection replaced, a renumbered mailbox read again by its unread mail.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PlatformAdapter } from '@hermes/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type AdapterHarness, adapterHarness } from '../../../../test/contract/adapter-harness.js';
import { eventually, memoryState, recordingSink } from '../../../../test/contract/recorders.js';
import { type FakeImap, startFakeImap } from '../../../../test/fakes/email-imap.js';
import { composeMail } from '../../../../test/fakes/email-mail.js';
import { type FakeSmtp, startFakeSmtp } from '../../../../test/fakes/email-smtp.js';
import { createEmailAdapter } from '../adapter.js';
import { LAST_UID_KEY, UIDVALIDITY_KEY } from '../resume.js';

const BOT = 'bot@example.test';
const ALICE = 'alice@example.test';

let imap: FakeImap;
let smtp: FakeSmtp;
let harness: AdapterHarness<{ close(): Promise<void> }, object>;
const running: PlatformAdapter[] = [];

beforeAll(async () => {
  imap = await startFakeImap({ user: BOT, password: 'pw' });
  smtp = await startFakeSmtp({ user: BOT, password: 'pw' });
  harness = adapterHarness({
    platform: 'email',
    fake: { close: async () => Promise.all([imap.close(), smtp.close()]).then(() => undefined) },
    env: {
      EMAIL_ADDRESS: BOT,
      EMAIL_PASSWORD: 'pw',
      EMAIL_IMAP_HOST: '127.0.0.1',
      EMAIL_IMAP_PORT: String(imap.port),
      EMAIL_SMTP_HOST: '127.0.0.1',
      EMAIL_SMTP_PORT: String(smtp.port),
      EMAIL_ALLOWED_USERS: ALICE,
    },
    settings: { imap_security: 'none', smtp_security: 'none', smtp_retry_ms: 100 },
    routes: false,
    create: (context, deps) => createEmailAdapter(context, deps),
  });
});
afterAll(async () => {
  await harness.close();
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((a) => a.stop()));
  smtp.reset();
  imap.reset();
});

async function started(options: Parameters<typeof harness.adapter>[0] = {}) {
  const state = options.state ?? memoryState();
  const sink = recordingSink(state);
  const adapter = harness.adapter({ ...options, state });
  running.push(adapter);
  await adapter.start(sink.sink);
  expect(adapter.status().state).toBe('connected');
  return { adapter, sink, state };
}

describe('email adapter', () => {
  it('reads a new mail pushed in IDLE, marks it \\Seen once accepted, and answers in its thread', async () => {
    const { adapter, sink, state } = await started();
    await eventually(() => imap.idling() === 1, undefined, 'the adapter in IDLE');
    const { raw, messageId } = await composeMail({
      from: `Alice <${ALICE}>`,
      subject: 'Dinner plans',
      text: 'Where shall we eat?',
    });
    const uid = imap.deliver(raw);
    await eventually(() => sink.events.length === 1, undefined, 'the mail accepted');
    const event = sink.events[0];
    expect(event?.messageId).toBe(messageId);
    expect(event?.text).toBe('Subject: Dinner plans\n\nWhere shall we eat?');
    expect(event?.source).toMatchObject({ platform: 'email', chatType: 'dm', userId: ALICE, userName: 'Alice' });
    expect(event?.source.chatId).toMatch(new RegExp(`^${ALICE}#[0-9a-f]{12}$`));
    expect(state.get(LAST_UID_KEY)).toBe(String(uid));
    expect(state.get(UIDVALIDITY_KEY)).toBe(String(imap.uidValidity()));
    await eventually(() => imap.messages.find((m) => m.uid === uid)?.flags.has('\\Seen') === true, undefined, '\\Seen');
    // BODY.PEEK[]: reading did not mark it, the STORE after the accept did
    expect(imap.commands.some((c) => c.name === 'UID STORE' && /\+FLAGS/.test(c.args))).toBe(true);

    const chatId = event?.source.chatId ?? '';
    const sent = await adapter.send({ chatId, text: 'At the *harbour*.', formatted: true, idempotencyKey: 'k1' });
    expect(sent.ok).toBe(true);
    await eventually(() => smtp.mails.length === 1, undefined, 'the answer');
    const mail = smtp.mails[0];
    expect(mail?.to).toEqual([ALICE]);
    expect(mail?.parsed.subject).toBe('Re: Dinner plans');
    expect(mail?.header('in-reply-to')).toBe(`<${messageId}>`);
    expect(mail?.header('references')).toBe(`<${messageId}>`);
    expect(mail?.header('auto-submitted')).toBe('auto-replied');
    expect(mail?.header('x-auto-response-suppress')).toBe('All');
    expect(mail?.parsed.text?.trim()).toBe('At the *harbour*.');
    expect(sent.ok && sent.messageIds[0]).toBe(mail?.parsed.messageId?.replace(/[<>]/g, ''));

    // the user's reply to the answer continues the same chat, its quote stripped
    const answerId = mail?.parsed.messageId?.replace(/[<>]/g, '') ?? '';
    const reply = await composeMail({
      from: ALICE,
      subject: 'Re: Dinner plans',
      text: `Great, see you there.\n\nOn Mon, 1 Jan 2026 at 10:00, Hermes <${BOT}> wrote:\n> At the *harbour*.\n`,
      inReplyTo: answerId,
      references: [messageId, answerId],
    });
    imap.deliver(reply.raw);
    await eventually(() => sink.events.length === 2, undefined, 'the reply accepted');
    expect(sink.events[1]?.source.chatId).toBe(chatId);
    expect(sink.events[1]?.text).toBe('Great, see you there.');
  });

  it('a restart reads on after the last mail taken: each mail once; mail from before the first start is left alone', async () => {
    const before = await composeMail({ from: ALICE, text: 'sent before the bot ever ran' });
    imap.deliver(before.raw);
    const state = memoryState();
    const first = await started({ state });
    const one = await composeMail({ from: ALICE, text: 'first' });
    imap.deliver(one.raw);
    await eventually(() => first.sink.events.length === 1, undefined, 'the first mail');
    await first.adapter.stop();
    const two = await composeMail({ from: ALICE, text: 'while stopped' });
    imap.deliver(two.raw);
    const second = await started({ state });
    await eventually(() => second.sink.events.length === 1, undefined, 'the mail sent while stopped');
    expect(second.sink.events.map((e) => e.text)).toEqual(['while stopped']);
    expect(first.sink.events.map((e) => e.text)).toEqual(['first']);
  });

  it('loops, lists, bounces and strangers are skipped (left unread); the mail after them is taken', async () => {
    const { sink } = await started();
    const skipped = [
      await composeMail({ from: ALICE, text: 'I am away', headers: { 'Auto-Submitted': 'auto-replied' } }),
      await composeMail({ from: ALICE, text: 'newsletter', headers: { Precedence: 'bulk' } }),
      await composeMail({ from: ALICE, text: 'list post', headers: { 'List-Id': '<team.lists.example.test>' } }),
      await composeMail({ from: ALICE, text: 'ooo', headers: { 'X-Auto-Response-Suppress': 'OOF' } }),
      await composeMail({ from: 'MAILER-DAEMON@example.test', text: 'Undeliverable' }),
      await composeMail({ from: BOT, text: 'my own answer' }),
      await composeMail({ from: 'mallory@example.test', text: 'let me in' }),
    ];
    const uids = skipped.map((m) => imap.deliver(m.raw));
    const ok = await composeMail({ from: ALICE, text: 'a real question' });
    imap.deliver(ok.raw);
    await eventually(() => sink.events.length === 1, undefined, 'the real mail');
    expect(sink.events[0]?.text).toBe('a real question');
    for (const uid of uids) expect(imap.messages.find((m) => m.uid === uid)?.flags.has('\\Seen')).toBe(false);
    const logged = harness.lines.map((l) => l.msg ?? '').join('\n');
    expect(logged).toContain('Auto-Submitted: auto-replied');
    expect(logged).toContain('Precedence: bulk');
    expect(logged).toContain('mailing-list');
    expect(logged).toContain('X-Auto-Response-Suppress');
    expect(logged).toContain('machine address');
    expect(logged).toContain('whom no allowlist names');
  });

  it("with unknown_senders: pair a stranger's mail reaches the gateway (which answers with a pairing code)", async () => {
    const { sink } = await started({ settings: { unknown_senders: 'pair' } });
    const { raw } = await composeMail({
      from: 'mallory@example.test',
      text: 'let me in',
      attachments: [{ filename: 'a.txt', contentType: 'text/plain', content: Buffer.from('x') }],
    });
    imap.deliver(raw);
    await eventually(() => sink.events.length === 1, undefined, "the stranger's mail");
    expect(sink.events[0]?.source.userId).toBe('mallory@example.test');
  });

  it('files in: attachments stored in the cache; out: a file attached to a mail in the thread', async () => {
    const { adapter, sink } = await started();
    const photo = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.alloc(40_000, 3)]);
    const { raw } = await composeMail({
      from: ALICE,
      subject: 'look',
      text: 'what is this?',
      attachments: [
        { filename: 'photo.png', contentType: 'image/png', content: photo },
        { filename: 'notes.txt', contentType: 'text/plain', content: Buffer.from('remember') },
      ],
    });
    imap.deliver(raw);
    await eventually(() => sink.events.length === 1, undefined, 'the mail with files');
    const event = sink.events[0];
    expect(event?.kind).toBe('media');
    const files = event?.attachments ?? [];
    expect(files.map((f) => [f.fileName, f.kind, f.mimeType])).toEqual([
      ['photo.png', 'photo', 'image/png'],
      ['notes.txt', 'document', 'text/plain'],
    ]);
    expect(readFileSync(files[0]?.path ?? '').equals(photo)).toBe(true);

    const dir = mkdtempSync(join(tmpdir(), 'hermes-email-out-'));
    const path = join(dir, 'report.pdf');
    writeFileSync(path, '%PDF-1.4 fake');
    const result = await adapter.sendMedia?.({
      chatId: event?.source.chatId ?? '',
      path,
      fileName: 'report.pdf',
      mimeType: 'application/pdf',
      kind: 'document',
      size: 13,
    });
    expect(result?.ok).toBe(true);
    await eventually(() => smtp.mails.length === 1, undefined, 'the mail with the file');
    expect(smtp.mails[0]?.files.map((f) => [f.fileName, f.data.toString()])).toEqual([['report.pdf', '%PDF-1.4 fake']]);
    expect(smtp.mails[0]?.parsed.subject).toBe('Re: look');
  });

  it('SMTP refusals: a 451 is rate_limited (retry after smtp_retry_ms), a 552 is bad_format, a bad chat not_found', async () => {
    const { adapter } = await started();
    smtp.deferNext();
    const deferred = await adapter.send({ chatId: `${ALICE}#0123456789ab`, text: 'hi', formatted: true });
    expect(deferred).toMatchObject({ ok: false, error: 'rate_limited', retryAfterMs: 100 });
    smtp.refuseNextAttachment();
    const dir = mkdtempSync(join(tmpdir(), 'hermes-email-out-'));
    writeFileSync(join(dir, 'big.bin'), 'x');
    const refused = await adapter.sendMedia?.({
      chatId: ALICE,
      path: join(dir, 'big.bin'),
      fileName: 'big.bin',
      mimeType: 'application/octet-stream',
      kind: 'document',
      size: 1,
    });
    expect(refused).toMatchObject({ ok: false, error: 'bad_format' });
    expect(await adapter.send({ chatId: 'not an address', text: 'x', formatted: true })).toMatchObject({
      ok: false,
      error: 'not_found',
    });
  });

  it('a dropped connection is replaced (status error, then connected) and the mail meanwhile is read once', async () => {
    const { adapter, sink } = await started();
    await eventually(() => imap.idling() === 1, undefined, 'the adapter in IDLE');
    const opened = imap.connectionsOpened();
    imap.refuseLogins(true);
    imap.dropConnections();
    await eventually(() => adapter.status().state === 'error', undefined, 'the error state');
    const { raw } = await composeMail({ from: ALICE, text: 'while you were away' });
    imap.deliver(raw);
    imap.refuseLogins(false);
    await eventually(() => sink.events.length === 1, undefined, 'the mail after the reconnect');
    expect(adapter.status().state).toBe('connected');
    expect(imap.connectionsOpened()).toBeGreaterThan(opened);
    expect(imap.openConnections()).toBe(1);
  });

  it('a renumbered mailbox (UIDVALIDITY changed) reads its unread mail again; taken mail stays taken', async () => {
    for (const m of imap.messages) m.flags.add('\\Seen'); // earlier tests' mail is not this test's
    const state = memoryState();
    const first = await started({ state });
    const { raw } = await composeMail({ from: ALICE, text: 'taken before' });
    imap.deliver(raw);
    await eventually(() => first.sink.events.length === 1, undefined, 'the first mail');
    await eventually(() => imap.messages.at(-1)?.flags.has('\\Seen') === true, undefined, '\\Seen');
    await first.adapter.stop();
    const unread = await composeMail({ from: ALICE, text: 'unread when renumbered' });
    imap.deliver(unread.raw);
    imap.renumber();
    const second = await started({ state });
    await eventually(() => second.sink.events.length === 1, undefined, 'the unread mail');
    expect(second.sink.events.map((e) => e.text)).toEqual(['unread when renumbered']);
    expect(state.get(UIDVALIDITY_KEY)).toBe(String(imap.uidValidity()));
  });
});

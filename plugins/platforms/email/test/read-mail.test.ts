// Reading mail: mailparser's reading turned into the gateway's event (threads, quotes, HTML, files,
// charsets, missing Message-IDs) or a skip with its reason (loops, strangers, unauthenticated).
import type { MessageEvent } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { composeMail } from '../../../../test/fakes/email-mail.js';
import { parseMail } from '../parse.js';
import { baseSubject, type Inbound, type ReadContext, readMail } from '../read-mail.js';
import { decodeChatThread } from '../thread-state.js';
import { chatIdOf, ownMessageId, threadKeyOfRoot } from '../threads.js';

const BOT = 'bot@example.test';
const ALICE = 'alice@example.test';
const context: ReadContext = {
  own: BOT,
  receivedAt: 1,
  allowlisted: (a) => a === ALICE,
  unknownSenders: 'ignore',
  requireDmarcPass: false,
  uid: 7,
};

async function read(raw: Buffer | string, ctx: Partial<ReadContext> = {}): Promise<Inbound> {
  const bytes = Buffer.isBuffer(raw) ? raw : Buffer.from(raw);
  return readMail(await parseMail(bytes), bytes, { ...context, ...ctx });
}

function message(inbound: Inbound): MessageEvent & { chatState: string } {
  if (inbound.kind !== 'message') throw new Error(`skipped: ${inbound.reason}`);
  return Object.assign(inbound.event, { chatState: inbound.chatState.value });
}

describe('readMail', () => {
  it("a thread's first mail: headed by its subject, its own thread; a reply continues it, quote stripped", async () => {
    const first = await composeMail({
      from: `"Alice A." <Alice@Example.test>`,
      subject: 'Trip',
      text: 'Book a train?',
    });
    const one = message(await read(first.raw));
    expect(one.text).toBe('Subject: Trip\n\nBook a train?');
    expect(one.source).toMatchObject({ userId: ALICE, userName: 'Alice A.', chatType: 'dm' });
    expect(one.source.chatId).toBe(chatIdOf(ALICE, threadKeyOfRoot(first.messageId)));
    expect(decodeChatThread(one.chatState)).toEqual({
      subject: 'Trip',
      last: first.messageId,
      references: [first.messageId],
    });

    // the bot's answer names the thread in its Message-ID: a reply naming only it (no References) lands there
    const answer = ownMessageId(threadKeyOfRoot(first.messageId), 'k1', 'example.test');
    const reply = await composeMail({
      from: ALICE,
      subject: 'RE: Re: Trip',
      text: `Yes please.\n\nOn Tue, 2 Jun 2026 at 09:12, Hermes <${BOT}>\nwrote:\n> Which day?\n`,
      inReplyTo: answer,
    });
    const two = message(await read(reply.raw));
    expect(two.source.chatId).toBe(one.source.chatId);
    expect(two.text).toBe('Yes please.');
    expect(decodeChatThread(two.chatState)?.subject).toBe('Trip');
  });

  it('an HTML-only mail becomes text; its blockquote (Gmail quote) is dropped', async () => {
    const { raw } = await composeMail({
      from: ALICE,
      html: '<div>Hi <b>bot</b>,<br>how are <i>you</i>?</div><div class="gmail_quote">On Mon, Alice wrote:<blockquote>old text</blockquote></div>',
      inReplyTo: 'x@y',
    });
    expect(message(await read(raw)).text).toBe('Hi bot,\nhow are you?');
  });

  it('a command stays the whole text (no subject heading); a mail without Message-ID is named by its bytes', async () => {
    const { raw } = await composeMail({ from: ALICE, subject: 'hello', text: '/new', messageId: null });
    const event = message(await read(raw));
    expect(event.text).toBe('/new');
    expect(event.messageId).toMatch(/^sha256-[0-9a-f]{32}$/);
    expect(message(await read(raw)).messageId).toBe(event.messageId);
  });

  it('attachments become files with their names and types; small inline images of an HTML body are left out', async () => {
    const { raw } = await composeMail({
      from: ALICE,
      text: 'see attached',
      attachments: [
        { filename: '../../etc/passwd', contentType: 'text/plain', content: Buffer.from('x') },
        { filename: 'voice.ogg', contentType: 'audio/ogg', content: Buffer.from('OggS') },
      ],
    });
    const inbound = await read(raw);
    if (inbound.kind !== 'message') throw new Error('skipped');
    expect(inbound.files.map((f) => [f.fileName, f.attachment.kind, f.attachment.size])).toEqual([
      ['passwd', 'document', 1],
      ['voice.ogg', 'audio', 4],
    ]);
    const related = [
      'From: alice@example.test',
      'To: bot@example.test',
      'Message-ID: <rel@x>',
      'Content-Type: multipart/related; boundary="b"',
      '',
      '--b',
      'Content-Type: text/html',
      '',
      '<p>hi <img src="cid:logo@x"></p>',
      '--b',
      'Content-Type: image/png',
      'Content-ID: <logo@x>',
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from('tiny logo').toString('base64'),
      '--b--',
      '',
    ].join('\r\n');
    const inline = await read(related);
    expect(inline.kind === 'message' && inline.files).toEqual([]);
  });

  it('an unknown charset and broken MIME are read as well as they can be, never thrown', async () => {
    const odd =
      'From: alice@example.test\r\nMessage-ID: <c@x>\r\nContent-Type: text/plain; charset=x-no-such-charset\r\n\r\nhello there\r\n';
    expect(message(await read(odd)).text).toContain('hello there');
    const broken =
      'From: alice@example.test\r\nMessage-ID: <b@x>\r\nContent-Type: multipart/mixed; boundary="never"\r\n\r\nno boundary ever\r\n';
    const inbound = await read(broken);
    expect(['message', 'skip']).toContain(inbound.kind);
  });

  it('skips: no sender, a stranger (ignore), the bot itself (routine), loops; a stranger passes with pair', async () => {
    const noFrom = await read('To: bot@example.test\r\nMessage-ID: <n@x>\r\n\r\nhi\r\n');
    expect(noFrom).toMatchObject({ kind: 'skip', reason: expect.stringContaining('without a sender') });
    const stranger = await composeMail({ from: 'mallory@example.test', text: 'hi' });
    expect(await read(stranger.raw)).toMatchObject({ kind: 'skip', reason: expect.stringContaining('no allowlist') });
    expect((await read(stranger.raw, { unknownSenders: 'pair' })).kind).toBe('message');
    const own = await composeMail({ from: BOT, text: 'my answer' });
    expect(await read(own.raw)).toMatchObject({ kind: 'skip', routine: true });
    const bounce = await composeMail({ from: ALICE, text: 'x', headers: { 'Content-Type': 'multipart/report' } });
    expect((await read(bounce.raw)).kind).toBe('skip');
  });

  it('require_dmarc_pass: only the topmost Authentication-Results counts (one added below by the sender proves nothing)', async () => {
    const passed = await composeMail({
      from: ALICE,
      text: 'hi',
      headers: {
        'Authentication-Results':
          'mx.example.test; spf=pass; dkim=pass; dmarc=pass (p=reject) header.from=example.test',
      },
    });
    expect((await read(passed.raw, { requireDmarcPass: true })).kind).toBe('message');
    const forged = Buffer.concat([
      Buffer.from('Authentication-Results: mx.example.test; dmarc=fail header.from=example.test\r\n'),
      (await composeMail({ from: ALICE, text: 'hi', headers: { 'Authentication-Results': 'evil; dmarc=pass' } })).raw,
    ]);
    expect(await read(forged, { requireDmarcPass: true })).toMatchObject({
      kind: 'skip',
      reason: expect.stringContaining('dmarc'),
    });
  });

  it('a mail over max_mail_bytes (headers only) says so in its text', async () => {
    const { raw } = await composeMail({ from: ALICE, subject: 'huge', text: 'x' });
    const inbound = readMail(await parseMail(raw), raw, context, {
      size: 40 * 1024 * 1024,
      maxBytes: 25 * 1024 * 1024,
    });
    expect(message(inbound).text).toBe(
      '[a mail of 40.0 MB, over the 25.0 MB this gateway reads (gateway.platforms.email.max_mail_bytes): its text and files were not read]',
    );
  });

  it('baseSubject drops reply and forward prefixes', () => {
    expect(baseSubject('Re: AW: Fwd: [2] Re[3]: hello  world')).toBe('[2] Re[3]: hello world');
    expect(baseSubject('RE: SV: Antw: plan')).toBe('plan');
    expect(baseSubject(undefined)).toBe('');
  });
});

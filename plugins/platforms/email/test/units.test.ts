// The email adapter's pure parts: quote stripping, the loop guard, thread keys and chat ids, the
// settings' checks (TLS, loopback-only plain text), plain-text formatting and SMTP error mapping.
import { describe, expect, it } from 'vitest';
import { markdownToPlain } from '../format/markdown-to-plain.js';
import { mailHeaders } from '../headers.js';
import { loopRefusal } from '../loop-guard.js';
import { stripQuoted } from '../quote-strip.js';
import { toSendFailure } from '../send-errors.js';
import { readEmailSettings } from '../settings.js';
import {
  chatIdOf,
  messageIdList,
  normalizeMessageId,
  ownMessageId,
  parseChatId,
  threadKeyOf,
  threadKeyOfRoot,
} from '../threads.js';

const headers = (lines: Record<string, string>) =>
  mailHeaders(Object.entries(lines).map(([k, v]) => ({ key: k.toLowerCase(), line: `${k}: ${v}` })));

describe('stripQuoted', () => {
  it('drops the attribution line and everything below it, in several languages and wrapped', () => {
    expect(
      stripQuoted('Sounds good.\n\nOn Mon, Jan 1, 2026 at 10:00 AM Bot <bot@x.test> wrote:\n> earlier\n> text'),
    ).toBe('Sounds good.');
    expect(stripQuoted('Ja.\n\nAm 01.01.2026 um 10:00 schrieb Bot <bot@x.test>:\n> alt')).toBe('Ja.');
    expect(stripQuoted('Oui.\n\nLe lun. 1 janv. 2026, Bot <bot@x.test> a écrit :\n> vieux')).toBe('Oui.');
    expect(stripQuoted('Yes.\n\nOn Mon, Jan 1, 2026 at 10:00 AM Some Very Long Name <bot@x.test>\nwrote:\n> old')).toBe(
      'Yes.',
    );
  });

  it("drops Outlook's original-message blocks and signatures; keeps inline answers", () => {
    expect(stripQuoted('Fine.\n\n-----Original Message-----\nFrom: Bot\nSent: Monday\nold')).toBe('Fine.');
    expect(stripQuoted('Fine.\n\n________________________________\nFrom: Bot <bot@x>\nSent: Monday\nTo: me\nold')).toBe(
      'Fine.',
    );
    expect(stripQuoted('Fine.\n\nFrom: Bot <bot@x>\nSent: Monday\nTo: Alice\nSubject: x\n\nold')).toBe('Fine.');
    expect(stripQuoted('> question one?\nanswer one\n> question two?\nanswer two')).toBe('answer one\nanswer two');
    expect(stripQuoted('Thanks!\n-- \nAlice\nACME Corp')).toBe('Thanks!');
  });

  it('keeps a text that would be left empty, and a forwarded message', () => {
    expect(stripQuoted('> only a quote')).toBe('> only a quote');
    const forwarded = 'FYI\n\n---------- Forwarded message ---------\nFrom: Carol\n\nthe content';
    expect(stripQuoted(forwarded)).toBe(forwarded);
  });
});

describe('loopRefusal', () => {
  const ok = (h: Record<string, string>, from = 'alice@x.test') => loopRefusal(headers(h), from, 'bot@x.test');
  it('refuses auto-replies, bulk, lists, bounces, reports, machine senders and the bot itself', () => {
    expect(ok({ 'Auto-Submitted': 'auto-replied' })).toMatch(/Auto-Submitted/);
    expect(ok({ 'Auto-Submitted': 'auto-generated; type=vacation' })).toMatch(/Auto-Submitted/);
    expect(ok({ Precedence: 'junk' })).toMatch(/Precedence/);
    expect(ok({ Precedence: 'list' })).toMatch(/Precedence/);
    expect(ok({ 'X-Auto-Response-Suppress': 'All' })).toMatch(/X-Auto-Response-Suppress/);
    expect(ok({ 'List-Id': 'Team <team.x.test>' })).toMatch(/mailing-list/);
    expect(ok({ 'List-Unsubscribe': '<mailto:u@x.test>' })).toMatch(/mailing-list/);
    expect(ok({ 'X-Autoreply': 'yes' })).toMatch(/auto-reply/);
    expect(ok({ 'Return-Path': '<>' })).toMatch(/bounce/);
    expect(ok({ 'Content-Type': 'multipart/report; report-type=delivery-status' })).toMatch(/report/);
    for (const from of [
      'mailer-daemon@x.test',
      'postmaster@x.test',
      'no-reply@x.test',
      'noreply@x.test',
      'list-request@x.test',
    ]) {
      expect(ok({}, from)).toMatch(/machine address/);
    }
    expect(ok({}, 'bot@x.test')).toBe("the bot's own mail");
  });
  it('lets a person through, Auto-Submitted: no included', () => {
    expect(ok({ 'Auto-Submitted': 'no', Precedence: 'normal', 'X-Auto-Response-Suppress': 'None' })).toBeNull();
    expect(ok({})).toBeNull();
  });
});

describe('threads', () => {
  it('normalizes Message-IDs and lists References', () => {
    expect(normalizeMessageId(' <abc@x.test> ')).toBe('abc@x.test');
    expect(normalizeMessageId(undefined)).toBeUndefined();
    expect(normalizeMessageId(`<${'a'.repeat(300)}@x>`)).toMatch(/^sha256-[0-9a-f]{32}$/);
    expect(messageIdList('<a@x> <b@x>\r\n <a@x>')).toEqual(['a@x', 'b@x']);
  });
  it('a thread is its first mail; the bot’s own ids carry it; chat ids round-trip', () => {
    const key = threadKeyOfRoot('root@x');
    expect(key).toMatch(/^[0-9a-f]{12}$/);
    expect(threadKeyOf({ messageId: 'c@x', inReplyTo: ['b@x'], references: ['root@x', 'b@x'] })).toBe(key);
    expect(threadKeyOf({ messageId: 'root@x', inReplyTo: [], references: [] })).toBe(key);
    const own = ownMessageId(key, 'abc:12/x', 'bot.test');
    expect(own).toBe(`hermes.${key}.abc12x@bot.test`);
    expect(threadKeyOf({ messageId: 'd@x', inReplyTo: [own], references: [] })).toBe(key);
    expect(parseChatId(chatIdOf('a#b@x.test', key))).toEqual({ address: 'a#b@x.test', threadKey: key });
    expect(parseChatId('alice@x.test')).toEqual({ address: 'alice@x.test', threadKey: undefined });
  });
});

describe('readEmailSettings', () => {
  const env = {
    EMAIL_ADDRESS: 'Bot@Example.com',
    EMAIL_PASSWORD: 'app-password',
    EMAIL_IMAP_HOST: 'imap.example.com',
    EMAIL_SMTP_HOST: 'smtp.example.com',
  };
  it('TLS by default: implicit on 993/465, STARTTLS required elsewhere; logins default to the address', () => {
    const s = readEmailSettings({}, env);
    expect(s.address).toBe('bot@example.com');
    expect(s.imap).toMatchObject({ port: 993, security: 'tls', user: 'bot@example.com', password: 'app-password' });
    expect(s.smtp).toMatchObject({ port: 465, security: 'tls' });
    const submission = readEmailSettings({}, { ...env, EMAIL_SMTP_PORT: '587', EMAIL_SMTP_PASSWORD: 'other' });
    expect(submission.smtp).toMatchObject({ port: 587, security: 'starttls', password: 'other' });
    expect(s).toMatchObject({ mailbox: 'INBOX', unknownSenders: 'ignore', requireDmarcPass: false });
  });
  it('refuses plain text to a host that is not loopback unless allow_insecure; loopback is fine', () => {
    expect(() => readEmailSettings({ imap_security: 'none' }, env)).toThrow(/imap_security.*loopback/);
    expect(readEmailSettings({ imap_security: 'none', allow_insecure: true }, env).imap.security).toBe('none');
    const local = { ...env, EMAIL_IMAP_HOST: '127.0.0.1', EMAIL_SMTP_HOST: 'localhost' };
    expect(readEmailSettings({ imap_security: 'none', smtp_security: 'none' }, local).smtp.security).toBe('none');
  });
  it('names what is wrong', () => {
    expect(() => readEmailSettings({}, { ...env, EMAIL_ADDRESS: 'not an address' })).toThrow(/EMAIL_ADDRESS/);
    expect(() => readEmailSettings({}, { ...env, EMAIL_IMAP_PORT: '99999' })).toThrow(/EMAIL_IMAP_PORT/);
    expect(() => readEmailSettings({ smtp_security: 'ssl' }, env)).toThrow(/smtp_security/);
    expect(() => readEmailSettings({ unknown_senders: 'answer' }, env)).toThrow(/unknown_senders/);
    const { EMAIL_PASSWORD: _gone, ...noPassword } = env;
    expect(() => readEmailSettings({}, noPassword)).toThrow(/EMAIL_PASSWORD is not set/);
  });
});

describe('markdownToPlain', () => {
  it('writes mail conventions: *bold*, text <url>, indented code, aligned tables', () => {
    const plain = markdownToPlain(
      '# Title\nSome **bold** and [a link](https://x.test).\n\n```js\nlet a = 1;\n```\n\n| a | b |\n|---|---|\n| 1 | 22 |',
    );
    expect(plain).toContain('Title\nSome *bold* and a link <https://x.test>.');
    expect(plain).toContain('    let a = 1;');
    expect(plain).not.toContain('```');
    expect(plain).not.toContain('**');
    expect(plain).toMatch(/a +\| b/);
  });
});

describe('toSendFailure', () => {
  it('4xx and an unreachable server: retried after smtp_retry_ms; 5xx: final, by kind', () => {
    expect(toSendFailure({ responseCode: 451, response: '451 4.7.1 later' }, 500)).toMatchObject({
      error: 'rate_limited',
      retryAfterMs: 500,
    });
    expect(toSendFailure({ code: 'ESOCKET', command: 'CONN', message: 'connect ECONNREFUSED' }, 500)).toMatchObject({
      error: 'rate_limited',
    });
    expect(toSendFailure({ responseCode: 552, response: '552 5.3.4 too big' }, 500).error).toBe('bad_format');
    expect(toSendFailure({ responseCode: 550, response: '550 5.1.1 no such user' }, 500).error).toBe('not_found');
    expect(toSendFailure({ responseCode: 554, response: '554 5.7.1 spam' }, 500).error).toBe('forbidden');
    expect(toSendFailure({ code: 'EAUTH', responseCode: 535, response: '535 5.7.8 bad' }, 500).error).toBe('forbidden');
    expect(toSendFailure({ code: 'ETIMEDOUT', command: 'DATA' }, 500).error).toBe('transient');
  });
});

// Email through `hermes gateway run`: the bundled plugin loaded on the EMAIL_* variables, the
// mailbox read from the fake IMAP server in IDLE (test/fakes/email-imap.ts), answers sent to the
// fake SMTP server (test/fakes/email-smtp.ts), the fake model behind. One gateway for the file.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeImap, startFakeImap } from '../fakes/email-imap.js';
import { composeMail } from '../fakes/email-mail.js';
import { type FakeSmtp, startFakeSmtp } from '../fakes/email-smtp.js';
import { imagePartsOf } from '../fakes/openai-server.js';
import { tempHome } from '../helpers/run-hermes.js';
import { type RunningGateway, spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { waitFor, waitForValue } from '../helpers/wait-for.js';

const BOT = 'hermes@example.test';
const ALICE = 'alice@example.test';
const PASSWORD = 'e2e-app-password';

const openai = useFakeOpenAI();
let imap: FakeImap;
let smtp: FakeSmtp;
let gw: RunningGateway;

const chats = () => openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'));
const lastUserText = (): string => {
  const messages = (chats().at(-1)?.body?.messages ?? []) as { role: string; content: unknown }[];
  const content = messages.filter((m) => m.role === 'user').at(-1)?.content;
  if (typeof content === 'string') return content;
  return ((content ?? []) as { type: string; text?: string }[]).find((p) => p.type === 'text')?.text ?? '';
};
const health = async () =>
  (await (await fetch(`${gw.url}/health`)).json()) as { platforms: Record<string, { state: string }> };
const seen = (uid: number) => imap.messages.find((m) => m.uid === uid)?.flags.has('\\Seen') === true;

beforeAll(async () => {
  imap = await startFakeImap({ user: BOT, password: PASSWORD });
  smtp = await startFakeSmtp({ user: BOT, password: PASSWORD });
  const home = tempHome();
  writeFileSync(
    join(home, 'config.yaml'),
    'gateway:\n  batch_ms: 0\n  platforms:\n    email:\n      imap_security: none\n      smtp_security: none\n      from_name: Hermes Bot\n',
  );
  gw = await spawnGateway({
    HERMES_HOME: home,
    OPENAI_BASE_URL: openai.server.url,
    HERMES_INFERENCE_MODEL: 'test-model',
    EMAIL_ADDRESS: BOT,
    EMAIL_PASSWORD: PASSWORD,
    EMAIL_IMAP_HOST: '127.0.0.1',
    EMAIL_IMAP_PORT: String(imap.port),
    EMAIL_SMTP_HOST: '127.0.0.1',
    EMAIL_SMTP_PORT: String(smtp.port),
    EMAIL_ALLOWED_USERS: ALICE,
  });
});
afterAll(async () => {
  const code = await gw?.stop();
  await imap?.close();
  await smtp?.close();
  expect(code).toBe(0);
});
beforeEach(() => smtp.reset());

describe('email through hermes gateway run', () => {
  let first: { messageId: string; answerId: string } | undefined;

  it('a mail is answered with a threaded reply; the mail is marked \\Seen; health says connected', async () => {
    expect((await health()).platforms.email?.state).toBe('connected');
    await waitFor(() => imap.idling() === 1, { what: 'the mailbox in IDLE' });
    openai.server.script({ text: 'Saturday at **ten** works.' });
    const mail = await composeMail(
      { from: `Alice <${ALICE}>`, subject: 'Weekend hike', text: 'When shall we start?' },
      BOT,
    );
    const uid = imap.deliver(mail.raw);
    await waitFor(() => smtp.mails.length > 0, { what: 'the answer' });
    const answer = smtp.mails[0];
    expect(answer?.to).toEqual([ALICE]);
    expect(answer?.parsed.from?.value[0]).toMatchObject({ address: BOT, name: 'Hermes Bot' });
    expect(answer?.parsed.subject).toBe('Re: Weekend hike');
    expect(answer?.parsed.text?.trim()).toBe('Saturday at *ten* works.');
    expect(answer?.header('in-reply-to')).toBe(`<${mail.messageId}>`);
    expect(answer?.header('references')).toBe(`<${mail.messageId}>`);
    expect(answer?.header('auto-submitted')).toBe('auto-replied');
    expect(smtp.logins.at(-1)).toEqual({ user: BOT, ok: true });
    expect(lastUserText()).toBe('Subject: Weekend hike\n\nWhen shall we start?');
    await waitFor(() => seen(uid), { what: 'the mail marked \\Seen' });
    first = { messageId: mail.messageId, answerId: answer?.parsed.messageId?.replace(/[<>]/g, '') ?? '' };
  });

  it('a reply continues the session of the mail it answers, its quote stripped; the answer references the thread', async () => {
    if (first === undefined) throw new Error('the first test did not run');
    openai.server.script({ text: 'Bring water.' });
    const reply = await composeMail(
      {
        from: ALICE,
        subject: 'Re: Weekend hike',
        text: `Great. What should I bring?\n\nOn Sat, 6 Jun 2026 at 09:00, Hermes Bot <${BOT}> wrote:\n> Saturday at *ten* works.\n`,
        inReplyTo: first.answerId,
        references: [first.messageId, first.answerId],
      },
      BOT,
    );
    imap.deliver(reply.raw);
    await waitFor(() => smtp.mails.length > 0, { what: 'the second answer' });
    expect(lastUserText()).toBe('Great. What should I bring?');
    const history = JSON.stringify(chats().at(-1)?.body?.messages);
    expect(history).toContain('When shall we start?'); // the same session
    expect(history).not.toContain('> Saturday');
    const answer = smtp.mails[0];
    expect(answer?.parsed.subject).toBe('Re: Weekend hike');
    expect(answer?.header('in-reply-to')).toBe(`<${reply.messageId}>`);
    expect(answer?.header('references')).toBe(`<${first.messageId}> <${first.answerId}> <${reply.messageId}>`);
  });

  it('a stranger (unknown_senders ignore) and an auto-reply are not answered and stay unread; a photo reaches the model', async () => {
    const before = chats().length;
    const stranger = imap.deliver((await composeMail({ from: 'mallory@example.test', text: 'let me in' }, BOT)).raw);
    const away = imap.deliver(
      (await composeMail({ from: ALICE, text: 'I am on holiday', headers: { 'Auto-Submitted': 'auto-replied' } }, BOT))
        .raw,
    );
    const photo = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('mail jpeg '.repeat(100))]);
    openai.server.script({ text: 'a photo of text' });
    imap.deliver(
      (
        await composeMail(
          {
            from: ALICE,
            subject: 'photo',
            text: 'what is this?',
            attachments: [{ filename: 'snap.jpg', contentType: 'image/jpeg', content: photo }],
          },
          BOT,
        )
      ).raw,
    );
    await waitFor(() => smtp.mails.length > 0, { what: 'the photo answer' });
    expect(chats()).toHaveLength(before + 1);
    expect(imagePartsOf(chats().at(-1))).toEqual([{ mimeType: 'image/jpeg', data: photo }]);
    expect(smtp.mails.map((m) => m.to[0])).toEqual([ALICE]);
    expect(seen(stranger)).toBe(false);
    expect(seen(away)).toBe(false);
  });

  it('the IMAP connection dropped and logins refused: health error, then connected; the mail meanwhile is answered once', async () => {
    const opened = imap.connectionsOpened();
    imap.refuseLogins(true);
    imap.dropConnections();
    await waitForValue(health, (h) => h.platforms.email?.state === 'error', { what: 'email in error' });
    openai.server.script({ text: 'back again' }, { text: 'the marker' });
    imap.deliver((await composeMail({ from: ALICE, text: 'are you there?' }, BOT)).raw);
    imap.refuseLogins(false);
    await waitFor(() => smtp.mails.length > 0, { what: 'the answer after the reconnect' });
    await waitForValue(health, (h) => h.platforms.email?.state === 'connected', { what: 'email connected again' });
    expect(imap.connectionsOpened()).toBeGreaterThan(opened);
    imap.deliver((await composeMail({ from: ALICE, text: 'marker' }, BOT)).raw);
    await waitFor(() => smtp.mails.length > 1, { what: 'the marker answer' });
    expect(smtp.mails.map((m) => m.parsed.text?.trim())).toEqual(['back again', 'the marker']);
    expect(imap.openConnections()).toBe(1);
  });
});

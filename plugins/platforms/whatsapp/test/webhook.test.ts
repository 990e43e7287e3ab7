// The webhook on the adapter: Meta's GET verification, signed POSTs in, forged ones refused before
// anything is read, malformed payloads and unknown event types logged and skipped (the adapter goes
// on), statuses never turned into messages, files downloaded before the event is accepted, button
// presses handed to the gateway once.
import { readFileSync } from 'node:fs';
import type { ApprovalPress } from '@hermes/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signaturePresent } from '../webhook.js';
import { ALICE, type Harness, logText, recordingSink, startHarness, VERIFY_TOKEN } from './harness.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

const started = async () => {
  const recorder = recordingSink();
  const adapter = h.adapter();
  await adapter.start(recorder.sink);
  return { adapter, recorder };
};

describe('GET verification', () => {
  it('answers hub.challenge for subscribe with the right verify token; 403 otherwise', async () => {
    h.adapter();
    const verify = (query: Record<string, string>) =>
      h.verification()({ headers: {}, body: undefined, rawBody: '', query });
    const ok = await verify({
      'hub.mode': 'subscribe',
      'hub.verify_token': VERIFY_TOKEN,
      'hub.challenge': '1158201444',
    });
    expect(ok).toMatchObject({ status: 200, body: '1158201444' });
    const wrong = await verify({ 'hub.mode': 'subscribe', 'hub.verify_token': 'guess', 'hub.challenge': '1' });
    expect(wrong.status).toBe(403);
    expect(
      (await verify({ 'hub.mode': 'unsubscribe', 'hub.verify_token': VERIFY_TOKEN, 'hub.challenge': '1' })).status,
    ).toBe(403);
    expect((await verify({})).status).toBe(403);
    expect(logText(h.lines)).toContain('wrong verify token refused');
    expect(logText(h.lines)).not.toContain(VERIFY_TOKEN);
  });
});

describe('POST events', () => {
  it('a signed text message becomes a DM event with the wamid, the sender and the profile name; answered 200', async () => {
    const { recorder } = await started();
    const message = h.fake.webhooks.text(ALICE, 'hello bot');
    const res = await h.events()(h.signed(h.fake.webhooks.envelope({ messages: [message], sender: ALICE })));
    expect(res.status).toBe(200);
    expect(recorder.events).toHaveLength(1);
    expect(recorder.events[0]).toMatchObject({
      kind: 'text',
      platform: 'whatsapp',
      messageId: message.id,
      text: 'hello bot',
      source: { chatId: ALICE.from, userId: ALICE.from, userName: 'Alice', chatType: 'dm' },
    });
  });

  it('a forged, missing or malformed signature is refused 401 and nothing is accepted; logged without secrets', async () => {
    const { recorder } = await started();
    const payload = h.fake.webhooks.envelope({ messages: [h.fake.webhooks.text(ALICE, 'forged')] });
    const forged = await h.events()(h.signed(payload, `sha256=${'ab'.repeat(32)}`));
    expect(forged.status).toBe(401);
    expect((await h.events()(h.signed(payload, 'nonsense'))).status).toBe(401);
    expect((await h.events()(h.signed(payload, null))).status).toBe(401);
    // the header check before the body is read refuses a request without one
    expect(signaturePresent(h.context().logger)({ headers: {} })?.status).toBe(401);
    expect(signaturePresent(h.context().logger)({ headers: { 'x-hub-signature-256': 'sha256=x' } })).toBeNull();
    expect(recorder.attempts).toHaveLength(0);
    const log = logText(h.lines);
    expect(log).toContain('webhook POST refused (bad signature)');
    expect(log).toContain('webhook POST refused (malformed signature)');
    expect(log).not.toContain(h.fake.appSecret);
  });

  it('malformed payloads and unknown types are logged and skipped with 200; the next message still arrives', async () => {
    const { recorder } = await started();
    const w = h.fake.webhooks;
    const bodies: unknown[] = [
      [1, 2, 3],
      { object: 'page', entry: [] },
      { object: 'whatsapp_business_account' },
      { object: 'whatsapp_business_account', entry: [{ changes: [{ field: 'messages' }] }, 'junk'] },
      w.envelope({ messages: [{ id: '', from: ALICE.from, type: 'text' }] }),
      w.envelope({ messages: [{ ...w.text(ALICE, 'x'), type: 'order', text: undefined, order: { catalog_id: '1' } }] }),
      w.envelope({ messages: [{ ...w.text(ALICE, 'x'), type: 'reaction', reaction: { emoji: '👍' } }] }),
      w.envelope({ messages: [{ ...w.text(ALICE, 'x'), text: { body: 42 } }] }),
      w.envelope({ messages: [{ ...w.text(ALICE, 'x'), type: 'image', image: { caption: 'no id' } }] }),
      {
        object: 'whatsapp_business_account',
        entry: [{ id: '1', changes: [{ field: 'account_update', value: { event: 'VERIFIED_ACCOUNT' } }] }],
      },
    ];
    for (const body of bodies) expect((await h.events()(h.signed(body))).status).toBe(200);
    expect(recorder.attempts).toHaveLength(0);
    const log = logText(h.lines);
    expect(log).toContain('the body is not a JSON object');
    expect(log).toContain('object is "page", not "whatsapp_business_account"');
    expect(log).toContain('no entry list');
    expect(log).toContain('a messages change without a value');
    expect(log).toContain('a message without an id, sender or type');
    expect(log).toContain('message type "order" is not handled');
    expect(log).toContain('message skipped: a reaction');
    expect(log).toContain('a text message without a body');
    expect(log).toContain('an image message without a media id');
    const next = w.text(ALICE, 'still here');
    expect((await h.events()(h.signed(w.envelope({ messages: [next] })))).status).toBe(200);
    expect(recorder.events.map((e) => e.messageId)).toEqual([next.id]);
  });

  it('a location becomes text; several messages in one POST arrive in order', async () => {
    const { recorder } = await started();
    const w = h.fake.webhooks;
    const place = {
      ...w.text(ALICE, ''),
      type: 'location',
      text: undefined,
      location: { latitude: 52.52, longitude: 13.4, name: 'Mitte' },
    };
    const after = w.text(ALICE, 'see you there');
    await h.events()(h.signed(w.envelope({ messages: [place, after] })));
    expect(recorder.events.map((e) => e.text)).toEqual(['[location 52.52, 13.4 (Mitte)]', 'see you there']);
  });

  it('statuses are logged, a failed one with its error, and never become messages', async () => {
    const { recorder } = await started();
    const w = h.fake.webhooks;
    const statuses = [
      w.status('wamid.sent1', ALICE.from, 'delivered'),
      w.status('wamid.sent1', ALICE.from, 'read'),
      w.status('wamid.sent2', ALICE.from, 'failed', { code: 131047, title: 'Re-engagement message' }),
    ];
    expect((await h.events()(h.signed(w.envelope({ statuses })))).status).toBe(200);
    expect(recorder.attempts).toHaveLength(0);
    const failed = h.lines.find((l) => l.level === 'warn' && (l.msg ?? '').includes('a sent message failed'));
    expect(failed?.msg).toContain('131047 Re-engagement message');
  });

  it('503 before start(); 500 when the sink fails (Meta delivers again), then 200 once it is accepted', async () => {
    const adapter = h.adapter();
    const payload = h.fake.webhooks.envelope({ messages: [h.fake.webhooks.text(ALICE, 'early')] });
    expect((await h.events()(h.signed(payload))).status).toBe(503);
    const recorder = recordingSink();
    await adapter.start(recorder.sink);
    recorder.failNext();
    expect((await h.events()(h.signed(payload))).status).toBe(500);
    expect((await h.events()(h.signed(payload))).status).toBe(200);
    expect(recorder.events).toHaveLength(1);
    await adapter.stop();
    expect((await h.events()(h.signed(payload))).status).toBe(503);
  });

  it('an image and a voice note are downloaded (GET /{media-id}, then its url with the token) before the event', async () => {
    const { recorder } = await started();
    const w = h.fake.webhooks;
    const png = Buffer.from('\x89PNG fake image bytes', 'latin1');
    const ogg = Buffer.from('OggS opus bytes');
    const image = w.media(ALICE, 'image', {
      id: h.fake.addMedia(png, 'image/png'),
      mimeType: 'image/png',
      caption: 'look',
    });
    const voice = w.media(ALICE, 'audio', {
      id: h.fake.addMedia(ogg, 'audio/ogg'),
      mimeType: 'audio/ogg; codecs=opus',
      voice: true,
    });
    await h.events()(h.signed(w.envelope({ messages: [image, voice] })));
    const [photo, note] = recorder.events;
    expect(photo).toMatchObject({
      kind: 'media',
      text: 'look',
      attachments: [{ kind: 'photo', mimeType: 'image/png', fileName: 'photo.png' }],
    });
    expect(note).toMatchObject({
      kind: 'media',
      text: '',
      attachments: [{ kind: 'audio', mimeType: 'audio/ogg', fileName: 'voice.ogg', size: ogg.length }],
    });
    const path = (e: typeof photo) => (e?.kind === 'media' ? (e.attachments[0]?.path ?? '') : '');
    expect(readFileSync(path(photo)).equals(png)).toBe(true);
    expect(readFileSync(path(note)).equals(ogg)).toBe(true);
    const downloads = h.fake.calls.filter((c) => c.path.startsWith('/download/'));
    expect(downloads).toHaveLength(2);
    expect(downloads.every((c) => c.authorization === `Bearer ${h.fake.token}`)).toBe(true);
  });

  it('a file that cannot be fetched is delivered without its path; the message still arrives', async () => {
    const { recorder } = await started();
    const w = h.fake.webhooks;
    h.fake.failNext('media-info', 131000);
    const doc = w.media(ALICE, 'document', {
      id: h.fake.addMedia(Buffer.from('x'), 'application/pdf'),
      mimeType: 'application/pdf',
      filename: 'a.pdf',
    });
    await h.events()(h.signed(w.envelope({ messages: [doc] })));
    expect(recorder.events[0]).toMatchObject({ kind: 'media', attachments: [{ fileName: 'a.pdf', path: null }] });
    expect(logText(h.lines)).toContain('attachment download failed');
  });

  it('a button reply is a press handed to the gateway once, its answer sent to the presser; other replies are text', async () => {
    const presses: ApprovalPress[] = [];
    const recorder = recordingSink();
    const sink = {
      ...recorder.sink,
      approvalPress: async (press: ApprovalPress) => {
        presses.push(press);
        return { kind: 'accepted' as const, text: 'Approved once.' };
      },
    };
    await h.adapter().start(sink);
    const w = h.fake.webhooks;
    const press = w.buttonReply(ALICE, { id: 'hapv:abc123:once', title: 'Allow once' }, 'wamid.prompt');
    const payload = w.envelope({ messages: [press] });
    await h.events()(h.signed(payload));
    await h.events()(h.signed(payload)); // redelivered
    expect(presses).toEqual([
      { platform: 'whatsapp', approvalId: 'abc123', answer: 'once', userId: ALICE.from, chatId: ALICE.from },
    ]);
    expect(h.fake.sent.map((m) => [m.to, m.text, m.replyTo])).toEqual([[ALICE.from, 'Approved once.', press.id]]);
    expect(recorder.attempts).toHaveLength(0);
    const other = w.buttonReply(ALICE, { id: 'menu-1', title: 'Opening hours' }, 'wamid.menu');
    await h.events()(h.signed(w.envelope({ messages: [other] })));
    expect(recorder.events.map((e) => e.text)).toEqual(['Opening hours']);
  });

  it("an action button's press (a cron job's Cancel) goes to sink.actionPress; its answer is sent to the presser", async () => {
    const actions: unknown[] = [];
    const recorder = recordingSink();
    const sink = {
      ...recorder.sink,
      actionPress: async (press: unknown) => {
        actions.push(press);
        return { text: 'Job cancelled.' };
      },
    };
    await h.adapter().start(sink);
    const w = h.fake.webhooks;
    const cancel = w.buttonReply(ALICE, { id: 'hact:cron-cancel:job1', title: 'Cancel job' }, 'wamid.cron');
    await h.events()(h.signed(w.envelope({ messages: [cancel] })));
    expect(actions).toEqual([
      { platform: 'whatsapp', action: 'cron-cancel', arg: 'job1', userId: ALICE.from, chatId: ALICE.from },
    ]);
    expect(h.fake.sent.map((m) => m.text)).toEqual(['Job cancelled.']);
    expect(recorder.attempts).toHaveLength(0);
  });
});

// Sends through the Graph API against the fake: text, Meta's errors mapped to SendResult (rate
// limits with a retry, the token, the 24-hour window, the API's own trouble, no answer at all),
// files uploaded then sent, approval buttons within WhatsApp's limits, reactions, the typing indicator.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fitBody } from '../approvals.js';
import { markdownToWhatsApp } from '../format/markdown-to-whatsapp.js';
import { ALICE, type Harness, recordingSink, startHarness } from './harness.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

const text = (body: string) => ({ chatId: ALICE.from, text: body, formatted: true });

describe('send', () => {
  it('posts a text session message and reports its wamid', async () => {
    const adapter = h.adapter();
    const sent = await adapter.send({ ...text('hello'), replyToMessageId: 'wamid.user1' });
    expect(sent).toEqual({ ok: true, messageIds: [h.fake.sent[0]?.id] });
    expect(h.fake.sent[0]).toMatchObject({ to: ALICE.from, type: 'text', text: 'hello', replyTo: 'wamid.user1' });
    expect(h.fake.sent[0]?.body).toMatchObject({ messaging_product: 'whatsapp', recipient_type: 'individual' });
  });

  it('maps Meta error codes: rate limits with a retry, the token and the 24-hour window forbidden, 131000 transient', async () => {
    const adapter = h.adapter();
    const cases: [number, Record<string, unknown>][] = [
      [130429, { error: 'rate_limited', retryAfterMs: 1_000 }],
      [131056, { error: 'rate_limited', retryAfterMs: 6_000 }],
      [131047, { error: 'forbidden' }],
      [190, { error: 'forbidden' }],
      [368, { error: 'forbidden' }],
      [131026, { error: 'not_found' }],
      [100, { error: 'bad_format' }],
      [131000, { error: 'transient', status: 500 }],
    ];
    for (const [code, expected] of cases) {
      h.fake.failNext('messages', code);
      const result = await adapter.send(text(`code ${code}`));
      expect(result, `code ${code}`).toMatchObject({ ok: false, ...expected });
    }
    h.fake.failNext('messages', 131047);
    const outside = await adapter.send(text('late'));
    expect(outside.ok === false && outside.message).toContain('outside the 24-hour customer service window');
    expect(outside.ok === false && outside.message).toContain('template messages');
    expect(h.fake.sent).toHaveLength(0);
  });

  it('a refused token is forbidden and never named', async () => {
    const adapter = h.adapter({ env: { WHATSAPP_ACCESS_TOKEN: 'EAAGwrongtokenwrongtoken' } });
    const refused = await adapter.send(text('hi'));
    expect(refused).toMatchObject({ ok: false, error: 'forbidden' });
    expect(refused.ok === false && refused.message).not.toContain('EAAGwrongtokenwrongtoken');
  });

  it('an API that does not answer is transient, without a status', async () => {
    const down = h.adapter({ settings: { api_url: 'http://127.0.0.1:9/v21.0' } });
    const result = await down.send(text('hi'));
    expect(result).toMatchObject({ ok: false, error: 'transient' });
    expect(result.ok === false && result.status).toBeUndefined();
  });

  it('files are uploaded (multipart) then sent by media id: a PNG as an image, a WebP and a PDF as documents', async () => {
    const adapter = h.adapter();
    const file = (name: string, data: string) => {
      const path = join(h.cacheDir, name);
      writeFileSync(path, data);
      return path;
    };
    const media = (name: string, mimeType: string, kind: 'image' | 'document') => ({
      chatId: ALICE.from,
      path: file(name, `${name} bytes`),
      fileName: name,
      mimeType,
      kind,
      size: `${name} bytes`.length,
    });
    expect((await adapter.sendMedia?.(media('chart.png', 'image/png', 'image')))?.ok).toBe(true);
    expect((await adapter.sendMedia?.(media('pic.webp', 'image/webp', 'image')))?.ok).toBe(true);
    expect((await adapter.sendMedia?.(media('report.pdf', 'application/pdf', 'document')))?.ok).toBe(true);
    expect(h.fake.uploads.map((u) => [u.fileName, u.mimeType, u.size])).toEqual([
      ['chart.png', 'image/png', 15],
      ['pic.webp', 'image/webp', 14],
      ['report.pdf', 'application/pdf', 16],
    ]);
    expect(h.fake.sent.map((m) => [m.type, m.mediaId, m.filename])).toEqual([
      ['image', h.fake.uploads[0]?.id, undefined],
      ['document', h.fake.uploads[1]?.id, 'pic.webp'],
      ['document', h.fake.uploads[2]?.id, 'report.pdf'],
    ]);
    h.fake.failNext('media', 131053);
    expect(await adapter.sendMedia?.(media('bad.png', 'image/png', 'image'))).toMatchObject({
      ok: false,
      error: 'bad_format',
    });
  });

  it('an approval prompt has three reply buttons within 20 characters; a long command is cut to the 1,024 body', async () => {
    const adapter = h.adapter();
    const long = `Approval needed: the agent wants to run\nrm -rf ${'x'.repeat(1_500)}\nWhy: delete\nPress a button.`;
    const sent = await adapter.askApproval?.({ approvalId: 'abc123', chatId: ALICE.from, text: long });
    expect(sent?.ok).toBe(true);
    const prompt = h.fake.sent[0];
    expect(prompt?.buttons).toEqual([
      { id: 'hapv:abc123:once', title: 'Allow once' },
      { id: 'hapv:abc123:session', title: 'Allow this session' },
      { id: 'hapv:abc123:deny', title: 'Deny' },
    ]);
    expect(prompt?.text.length).toBeLessThanOrEqual(1_024);
    expect(prompt?.text).toContain('Why: delete\nPress a button.');
    expect(fitBody('short')).toBe('short');
    const buttons = await adapter.sendButtons?.({
      chatId: ALICE.from,
      text: 'Reminder',
      buttons: [{ label: 'Cancel this job right away', data: 'hact:cron-cancel:job1' }],
    });
    expect(buttons?.ok).toBe(true);
    expect(h.fake.sent[1]?.buttons).toEqual([{ id: 'hact:cron-cancel:job1', title: 'Cancel this job rig…' }]);
  });

  it('reactions set an emoji on the user message; typing marks the newest message read once per 20 s', async () => {
    let clock = 1_000_000;
    const recorder = recordingSink();
    const adapter = h.adapter({ deps: { now: () => clock } });
    await adapter.start(recorder.sink);
    expect(await adapter.react?.({ chatId: ALICE.from, messageId: 'wamid.in1', emoji: '👀' })).toEqual({
      ok: true,
      messageIds: ['wamid.in1'],
    });
    expect(h.fake.reactions).toEqual([{ messageId: 'wamid.in1', emoji: '👀' }]);
    await adapter.sendTyping?.(ALICE.from); // no message seen from this chat yet: nothing to mark
    const message = h.fake.webhooks.text(ALICE, 'hi');
    await h.events()(h.signed(h.fake.webhooks.envelope({ messages: [message] })));
    await adapter.sendTyping?.(ALICE.from);
    await adapter.sendTyping?.(ALICE.from);
    clock += 20_000;
    await adapter.sendTyping?.(ALICE.from);
    expect(h.fake.reads).toEqual([
      { messageId: message.id, typing: true },
      { messageId: message.id, typing: true },
    ]);
  });
});

describe('format', () => {
  it('turns Markdown into WhatsApp markup', () => {
    const md = [
      '# Title',
      'Some **bold**, *italic*, _also_, ~~gone~~ and `co**de**`.',
      '- [x] done',
      '* item with [a link](https://example.com)',
      '```ts',
      'const a = **1**;',
      '```',
      '| a | b |',
      '|---|---|',
      '| 1 | **2** |',
    ].join('\n');
    expect(markdownToWhatsApp(md)).toBe(
      [
        '*Title*',
        'Some *bold*, _italic_, _also_, ~gone~ and `co**de**`.',
        '- ☑ done',
        '- item with a link (https://example.com)',
        '```',
        'const a = **1**;',
        '```',
        '```',
        'a | b',
        '--+--',
        '1 | 2',
        '```',
      ].join('\n'),
    );
  });
});

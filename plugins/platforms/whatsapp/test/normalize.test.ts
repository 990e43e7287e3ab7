// One message as the gateway takes it (no network): every file type with its kind and name, a
// group message skipped, a reply quoting the bot, and the settings' refusals naming what is missing.
import { describe, expect, it } from 'vitest';
import { normalizeMessage } from '../normalize.js';
import type { WaMessage } from '../payload.js';
import { readWhatsAppSettings } from '../settings.js';

const base = { from: '15551230001', id: 'wamid.1', timestamp: '1700000000' };
const read = (message: Record<string, unknown>) => normalizeMessage({ ...base, ...message } as WaMessage, 'Alice', 1);

describe('normalizeMessage', () => {
  it('names each kind of file and keeps its caption', () => {
    const cases: [Record<string, unknown>, Record<string, unknown>, string][] = [
      [{ type: 'image', image: { id: '1', mime_type: 'image/jpeg' } }, { kind: 'photo', fileName: 'photo.jpg' }, ''],
      [
        { type: 'sticker', sticker: { id: '2', mime_type: 'image/webp' } },
        { kind: 'photo', fileName: 'sticker.webp' },
        '',
      ],
      [{ type: 'audio', audio: { id: '3', mime_type: 'audio/mpeg' } }, { kind: 'audio', fileName: 'audio.mp3' }, ''],
      [
        { type: 'video', video: { id: '4', mime_type: 'video/mp4', caption: 'watch' } },
        { kind: 'video', fileName: 'video.mp4' },
        'watch',
      ],
      [
        { type: 'document', document: { id: '5', mime_type: 'application/pdf', filename: '../../etc/Q3 report.pdf' } },
        { kind: 'document', fileName: 'Q3_report.pdf' },
        '',
      ],
    ];
    for (const [message, attachment, caption] of cases) {
      const inbound = read(message);
      expect(inbound.kind).toBe('message');
      if (inbound.kind !== 'message') continue;
      expect(inbound.event).toMatchObject({
        kind: 'media',
        text: caption,
        attachments: [{ ...attachment, path: null }],
      });
      expect(inbound.files[0]?.mediaId).toBe((message[message.type as string] as { id: string }).id);
    }
  });

  it('skips a group message; a reply quoting the bot is marked; an action button press is a press', () => {
    expect(read({ type: 'text', text: { body: 'hi all' }, group_id: '120363' })).toMatchObject({ kind: 'skip' });
    const reply = read({ type: 'text', text: { body: 'yes' }, context: { from: '15550783881', id: 'wamid.bot' } });
    expect(reply.kind === 'message' && reply.event.source.repliedToBot).toBe(true);
    const own = read({ type: 'text', text: { body: 'me again' }, context: { from: base.from, id: 'wamid.mine' } });
    expect(own.kind === 'message' && own.event.source.repliedToBot).toBeUndefined();
    const press = read({
      type: 'interactive',
      interactive: { type: 'button_reply', button_reply: { id: 'hact:cron-cancel:job1', title: 'Cancel job' } },
    });
    expect(press).toEqual({ kind: 'press', data: 'hact:cron-cancel:job1', userId: base.from, messageId: base.id });
  });
});

describe('readWhatsAppSettings', () => {
  const env = {
    WHATSAPP_ACCESS_TOKEN: 'EAAGx',
    WHATSAPP_PHONE_NUMBER_ID: '106540352242922',
    WHATSAPP_APP_SECRET: 'secret',
    WHATSAPP_VERIFY_TOKEN: 'verify',
  };
  it('names the missing credential or the wrong setting', () => {
    expect(() => readWhatsAppSettings({}, { ...env, WHATSAPP_APP_SECRET: '' })).toThrow(
      'whatsapp: WHATSAPP_APP_SECRET is not set (webhook events are verified with it)',
    );
    expect(() => readWhatsAppSettings({}, { ...env, WHATSAPP_VERIFY_TOKEN: undefined })).toThrow(
      'WHATSAPP_VERIFY_TOKEN is not set',
    );
    expect(() => readWhatsAppSettings({}, { ...env, WHATSAPP_PHONE_NUMBER_ID: '+1 555 0100' })).toThrow(
      'phone number id (digits)',
    );
    expect(() => readWhatsAppSettings({ webhook_path: 'hook' }, env)).toThrow(
      'gateway.platforms.whatsapp.webhook_path',
    );
    expect(() => readWhatsAppSettings({ api_url: 'graph.facebook.com' }, env)).toThrow(
      'gateway.platforms.whatsapp.api_url',
    );
    expect(readWhatsAppSettings({}, { ...env, WHATSAPP_API_URL: 'http://127.0.0.1:1/v21.0/' }).apiUrl).toBe(
      'http://127.0.0.1:1/v21.0',
    );
  });
});

// Inbound translation end to end (fake Bot API → grammy → adapter → sink): groups, replies, topics, files.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MessageEvent, PlatformAdapter } from '@hermes/protocol';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BOT_ID, eventually, type Harness, recordingSink, startHarness } from './harness.js';

let h: Harness;
let adapter: PlatformAdapter;
const recorder = recordingSink();

beforeAll(async () => {
  h = await startHarness();
  adapter = h.adapter();
  await adapter.start(recorder.sink);
});
afterAll(() => h.close());
beforeEach(() => {
  recorder.events.length = 0;
});

async function next(): Promise<MessageEvent> {
  await eventually(() => recorder.events.length > 0);
  const event = recorder.events.shift();
  if (event === undefined) throw new Error('no event');
  return event;
}

describe('telegram inbound', () => {
  it('marks a group message that @-mentions the bot', async () => {
    h.fake.pushMessage({ chatId: -5, chatType: 'group', userId: 9, text: 'hey @hermes_test_bot what time is it' });
    const event = await next();
    expect(event.source).toMatchObject({ chatId: '-5', chatType: 'group', userId: '9', mentioned: true });
    expect(event.source.repliedToBot).toBe(false);
  });

  it('does not mark a mention of someone else', async () => {
    h.fake.pushMessage({ chatId: -5, chatType: 'group', userId: 9, text: 'ask @someone_else' });
    expect((await next()).source.mentioned).toBe(false);
  });

  it('marks a reply to one of the bot messages', async () => {
    await adapter.send({ chatId: '-100', text: 'I am the bot', formatted: false });
    h.fake.pushMessage({ chatId: -100, chatType: 'supergroup', userId: 9, text: 'thanks', replyToBot: true });
    const event = await next();
    expect(event.source).toMatchObject({ chatType: 'group', repliedToBot: true, mentioned: false });
    expect(event.raw).toMatchObject({ message: { reply_to_message: { from: { id: BOT_ID } } } });
  });

  it('turns a forum topic message into a thread event', async () => {
    h.fake.pushMessage({ chatId: -100, chatType: 'supergroup', userId: 9, text: 'in a topic', threadId: 77 });
    const event = await next();
    expect(event.source).toMatchObject({ chatId: '-100', chatType: 'thread', threadId: '77' });
  });

  it('strips the @bot suffix of a leading command and counts it as addressed to the bot', async () => {
    h.fake.pushMessage({ chatId: -5, chatType: 'group', userId: 9, text: '/reset@hermes_test_bot now' });
    const event = await next();
    expect(event.text).toBe('/reset now');
    expect(event.source.mentioned).toBe(true);
  });

  it('downloads the largest photo into the cache folder and delivers a media event with the caption', async () => {
    const update = h.fake.pushMessage({ chatId: 42, userId: 42, text: 'what is this?', photo: { data: 'JPEGBYTES' } });
    const event = await next();
    expect(event.kind).toBe('media');
    expect(event.text).toBe('what is this?');
    const largest = update.message?.photo?.at(-1);
    const path = join(h.cacheDir, `${largest?.file_unique_id}-photo.jpg`);
    expect(event.attachments).toEqual([
      { kind: 'photo', path, fileName: 'photo.jpg', mimeType: 'image/jpeg', size: 9 },
    ]);
    expect(readFileSync(path, 'utf8')).toBe('JPEGBYTES');
    const getFile = h.fake.calls.filter((call) => call.method === 'getFile');
    expect(getFile.at(-1)?.body.file_id).toBe(largest?.file_id);
  });

  it('downloads a document under a safe name', async () => {
    h.fake.pushMessage({
      chatId: 42,
      userId: 42,
      document: { data: '%PDF-1.4', fileName: '../../etc/my report.pdf', mimeType: 'application/pdf' },
    });
    const event = await next();
    expect(event).toMatchObject({ kind: 'media', text: '' });
    const attachment = event.attachments?.[0];
    expect(attachment).toMatchObject({ kind: 'document', fileName: 'my_report.pdf', mimeType: 'application/pdf' });
    expect(attachment?.path?.startsWith(h.cacheDir)).toBe(true);
    expect(attachment?.path?.endsWith('-my_report.pdf')).toBe(true);
    expect(existsSync(attachment?.path ?? '')).toBe(true);
  });

  it('delivers the event with path null when the download fails', async () => {
    h.fake.failNext('getFile', { status: 400, description: 'Bad Request: file is too big' });
    h.fake.pushMessage({ chatId: 42, userId: 42, text: 'huge', document: { data: 'x', fileName: 'big.bin' } });
    const event = await next();
    expect(event.attachments?.[0]?.path).toBeNull();
    expect(h.lines.some((line) => line.level === 'warn' && /download failed/.test(line.msg ?? ''))).toBe(true);
  });

  it('asks only for new messages and button presses: edits are neither requested nor delivered', async () => {
    h.fake.pushUpdate({
      update_id: h.fake.nextUpdateId(),
      edited_message: {
        message_id: 1,
        date: 0,
        edit_date: 1,
        chat: { id: 42, type: 'private', first_name: 'Ada' },
        from: { id: 42, is_bot: false, first_name: 'Ada' },
        text: 'edited',
      },
    });
    h.fake.pushMessage({ chatId: 42, userId: 42, text: 'after the edit' });
    expect((await next()).text).toBe('after the edit');
    const poll = h.fake.calls.find((call) => call.method === 'getUpdates');
    expect(poll?.body.allowed_updates).toEqual(['message', 'callback_query']);
  });

  it('button presses: a malformed callback_query is skipped, an unknown button is answered, and the chat goes on', async () => {
    h.fake.pushUpdate({ update_id: h.fake.nextUpdateId(), callback_query: { id: 42, from: { id: 9 } } } as never);
    await adapter.send({ chatId: '42', text: 'a bot message', formatted: false });
    const bot = h.fake.sent.at(-1);
    const press = h.fake.pushCallbackQuery({
      chatId: 42,
      userId: 42,
      messageId: bot?.message_id ?? 0,
      data: 'not-ours',
    });
    h.fake.pushMessage({ chatId: 42, userId: 42, text: 'after the presses' });
    expect((await next()).text).toBe('after the presses');
    await eventually(() => h.fake.callbackAnswers.has(press.callback_query?.id ?? ''));
    expect(h.fake.callbackAnswers.get(press.callback_query?.id ?? '')).toBe('This button is not in use any more.');
    expect(recorder.events).toHaveLength(0); // presses are never messages
  });
});

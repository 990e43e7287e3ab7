// Inbound details end to end over Socket Mode: file downloads, strict_mention, user names, and the
// bot token, app token and signing secret never reaching a log line (SDK debug lines included).
import { existsSync, readFileSync } from 'node:fs';
import type { MessageEvent, PlatformAdapter } from '@hermes/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  APP_TOKEN,
  BOT_TOKEN,
  BOT_USER,
  eventually,
  type Harness,
  logText,
  recordingSink,
  SIGNING_SECRET,
  startHarness,
} from './harness.js';

let h: Harness;
let recorder: ReturnType<typeof recordingSink>;

beforeEach(async () => {
  h = await startHarness();
  recorder = recordingSink();
});
afterEach(() => h.close());

async function started(settings: Record<string, unknown> = {}): Promise<PlatformAdapter> {
  const adapter = h.adapter({ settings });
  await adapter.start(recorder.sink);
  return adapter;
}

async function next(): Promise<MessageEvent> {
  await eventually(() => recorder.events.length > 0);
  const event = recorder.events.shift();
  if (event === undefined) throw new Error('no event');
  return event;
}

describe('slack files', () => {
  it('downloads shared files with the bot token into the cache folder', async () => {
    await started();
    const pdf = h.fake.addFile({ name: 'Q1 report.pdf', mimetype: 'application/pdf', data: '%PDF-1.4 data' });
    const png = h.fake.addFile({ name: 'chart.png', mimetype: 'image/png', data: 'PNGDATA' });
    h.fake.pushMessage({ channel: 'D1', user: 'U1', text: 'see these', subtype: 'file_share', files: [pdf, png] });
    const event = await next();
    expect(event.kind).toBe('media');
    expect(event.text).toBe('see these');
    expect(event.attachments).toEqual([
      {
        kind: 'document',
        path: `${h.cacheDir}/${pdf.id}-Q1_report.pdf`,
        fileName: 'Q1_report.pdf',
        mimeType: 'application/pdf',
        size: 13,
      },
      {
        kind: 'photo',
        path: `${h.cacheDir}/${png.id}-chart.png`,
        fileName: 'chart.png',
        mimeType: 'image/png',
        size: 7,
      },
    ]);
    expect(readFileSync(`${h.cacheDir}/${pdf.id}-Q1_report.pdf`, 'utf8')).toBe('%PDF-1.4 data');
    expect(h.fake.downloads).toEqual([
      { fileId: pdf.id, authorized: true },
      { fileId: png.id, authorized: true },
    ]);
  });

  it('keeps the message with path null (logged) when a file cannot be had', async () => {
    await started({ max_file_bytes: 10 });
    const big = h.fake.addFile({ name: 'big.bin', data: 'x'.repeat(11) });
    const gone = { ...h.fake.addFile({ name: 'gone.txt', data: 'x' }) };
    gone.url_private_download = `${h.fake.origin}/files-pri/T-FNOPE/gone.txt`;
    const foreign = { ...h.fake.addFile({ name: 'evil.txt', data: 'x' }) };
    foreign.url_private_download = 'https://evil.example/steal';
    h.fake.pushMessage({ channel: 'D1', user: 'U1', text: 'files', files: [big, gone, foreign] });
    const event = await next();
    expect(event.attachments?.map((attachment) => attachment.path)).toEqual([null, null, null]);
    const failures = h.lines.filter((line) => /attachment download failed/.test(line.msg ?? ''));
    expect(failures.map((line) => (line.obj as { error: string }).error)).toEqual([
      'slack: file is 11 bytes, over max_file_bytes (10)',
      'slack: file download answered HTTP 404',
      'slack: refusing to send the bot token to evil.example',
    ]);
    expect(h.fake.downloads.map((download) => download.fileId)).toEqual(['FNOPE']);
  });
});

describe('slack mentions in threads', () => {
  it('with strict_mention, a follow-up in a thread the bot answered needs the mention', async () => {
    const adapter = await started({ strict_mention: true });
    const { message } = h.fake.pushMessage({ channel: 'C1', user: 'U1', text: `<@${BOT_USER}> hi` });
    const root = (await next()).source.threadId ?? '';
    expect(root).toBe((message.payload.event as { ts: string }).ts);
    expect((await adapter.send({ chatId: 'C1', threadId: root, text: 'hello', formatted: true })).ok).toBe(true);
    h.fake.pushMessage({ channel: 'C1', user: 'U1', text: 'no mention', threadTs: root });
    expect((await next()).source).toMatchObject({ chatType: 'thread', mentioned: false, repliedToBot: false });
    h.fake.pushMessage({ channel: 'C1', user: 'U1', text: `<@${BOT_USER}> with mention`, threadTs: root });
    expect((await next()).source).toMatchObject({ chatType: 'thread', mentioned: true, repliedToBot: false });
  });

  it('remembers the threads it answered in the platform state, so a new adapter still sees them', async () => {
    const state = new Map<string, string>();
    const memory = {
      get: (key: string) => state.get(key),
      set: (key: string, value: string) => void state.set(key, value),
      delete: (key: string) => void state.delete(key),
    };
    const first = h.adapter({ state: memory });
    expect((await first.send({ chatId: 'CNOPE', threadId: '1712345680.000100', text: 'x', formatted: true })).ok).toBe(
      false,
    );
    h.fake.addChannel({ id: 'C1', name: 'general', type: 'channel' });
    expect((await first.send({ chatId: 'C1', threadId: '1712345680.000200', text: 'x', formatted: true })).ok).toBe(
      true,
    );
    expect([...state.keys()]).toEqual(['thread:C1:1712345680.000200']); // a failed send marks nothing
    const second = h.adapter({ state: memory });
    await second.start(recorder.sink);
    h.fake.pushMessage({ channel: 'C1', user: 'U1', text: 'follow-up', threadTs: '1712345680.000200' });
    expect((await next()).source).toMatchObject({ chatType: 'thread', repliedToBot: true });
  });
});

describe('slack user names', () => {
  it('names the user from users.info, once per user', async () => {
    await started({ resolve_user_names: true });
    h.fake.addUser({ id: 'U7', name: 'ada', real_name: 'Ada Lovelace' });
    h.fake.pushMessage({ channel: 'D7', user: 'U7', text: 'one' });
    h.fake.pushMessage({ channel: 'D7', user: 'U7', text: 'two' });
    expect((await next()).source.userName).toBe('ada');
    expect((await next()).source.userName).toBe('ada');
    expect(h.fake.calls.filter((call) => call.method === 'users.info')).toHaveLength(1);
  });

  it('delivers without a name when users.info fails', async () => {
    await started({ resolve_user_names: true });
    h.fake.failNext('users.info', { error: 'missing_scope' });
    h.fake.pushMessage({ channel: 'D8', user: 'U8', text: 'nameless' });
    const event = await next();
    expect(event.text).toBe('nameless');
    expect(event.source.userName).toBeUndefined();
  });
});

describe('slack secrets', () => {
  it('never logs the bot token, the app token or the signing secret, even at SDK debug level', async () => {
    const socket = await started({ sdk_log_level: 'debug', resolve_user_names: true });
    const file = h.fake.addFile({ name: 'a.txt', data: 'x' });
    h.fake.pushMessage({ channel: 'D1', user: 'U1', text: 'hello', files: [file] });
    await next();
    h.fake.failNext('chat.postMessage', { rateLimited: 1 });
    await socket.send({ chatId: 'D1', text: 'answer', formatted: true });
    await socket.send({ chatId: 'D1', text: 'answer', formatted: true });
    h.fake.disconnect();
    await h.fake.waitForConnections(2);
    await eventually(() => socket.status().state === 'connected');
    const http = h.adapter({ settings: { mode: 'http', sdk_log_level: 'debug' } });
    await http.start(recordingSink().sink);
    await h.route()(h.signed(h.fake.eventCallback(h.fake.messageEvent({ channel: 'D1', user: 'U1', text: 'x' }))));
    await h.route()(h.signed({ type: 'event_callback' }, { secret: 'wrong' }));
    await socket.stop();
    await http.stop();
    const text = logText(h.lines);
    expect(h.lines.some((line) => line.level === 'debug' && /slack sdk:/.test(line.msg ?? ''))).toBe(true);
    for (const secret of [BOT_TOKEN, APP_TOKEN, SIGNING_SECRET]) expect(text).not.toContain(secret);
    expect(existsSync(h.cacheDir)).toBe(true);
  });
});

// The Matrix adapter against the fake homeserver: the sync token (no history on a fresh install,
// resumed after a restart, moved only past accepted messages), exactly-once sends by transaction
// id, edits and reactions, threads, replies the adapter forgot, invites, encrypted rooms, media in
// both directions, and what a refused token or a malformed sync answer does.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AdapterDeps } from '@hermes/plugin-sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AdapterHarness } from '../../../../test/contract/adapter-harness.js';
import type { FakeMatrix } from '../../../../test/fakes/matrix-server.js';
import { E2EE_NOTICE } from '../capabilities.js';
import { NEXT_BATCH_KEY } from '../sync.js';
import { ALICE, BOB, eventually, logText, memoryState, recordingSink, startHarness } from './harness.js';

let h: AdapterHarness<FakeMatrix, AdapterDeps>;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

const polling = () => eventually(() => h.fake.pendingSyncs() > 0, 10_000, 'a /sync long poll');

describe('the sync token', () => {
  it('a fresh install answers no history; the token is stored; a new message is accepted once', async () => {
    const room = h.fake.directRoom(ALICE);
    h.fake.message(room, ALICE, 'an old message');
    const state = memoryState();
    const rec = recordingSink(state);
    await h.adapter({ state }).start(rec.sink);
    await polling();
    expect(rec.attempts).toHaveLength(0);
    expect(state.values.get(NEXT_BATCH_KEY)).toMatch(/^s\d+$/);
    h.fake.message(room, ALICE, 'hello');
    await eventually(() => rec.events.length === 1);
    expect(rec.events[0]).toMatchObject({
      text: 'hello',
      source: { chatId: room, chatType: 'dm', userId: ALICE.userId },
    });
    const [first, second] = h.fake.syncs;
    expect(first).toMatchObject({ since: undefined, timeout: '0', setPresence: 'offline' });
    expect(second).toMatchObject({ since: expect.stringMatching(/^s\d+$/), timeout: '10000' });
    expect(JSON.parse(first?.filter ?? '{}')).toMatchObject({ room: { timeline: { limit: 100 } } });
  });

  it('a restart resumes from the stored token: what came meanwhile is accepted, nothing twice', async () => {
    const room = h.fake.directRoom(ALICE);
    const state = memoryState();
    const one = recordingSink(state);
    const first = h.adapter({ state });
    await first.start(one.sink);
    await polling();
    h.fake.message(room, ALICE, 'before');
    await eventually(() => one.events.length === 1);
    await eventually(
      () => h.fake.syncs.at(-1)?.since === state.values.get(NEXT_BATCH_KEY),
      10_000,
      'the next long poll',
    );
    await first.stop();
    const token = state.values.get(NEXT_BATCH_KEY);
    h.fake.message(room, ALICE, 'while stopped');
    const two = recordingSink(state);
    h.fake.syncs.length = 0;
    await h.adapter({ state }).start(two.sink);
    await eventually(() => two.events.length === 1);
    await polling();
    expect(two.events.map((e) => e.text)).toEqual(['while stopped']);
    expect(h.fake.syncs[0]).toMatchObject({ since: token, timeout: '0' });
  });

  it('a restart after more messages than a sync gives (a limited timeline): the rest is paged with /messages, none lost or twice', async () => {
    const room = h.fake.directRoom(ALICE);
    const state = memoryState();
    const first = h.adapter({ state });
    await first.start(recordingSink(state).sink);
    await polling();
    await first.stop();
    for (let i = 0; i < 250; i += 1) h.fake.message(room, ALICE, `missed ${i}`);
    const rec = recordingSink(state);
    await h.adapter({ state }).start(rec.sink);
    await eventually(() => rec.events.length === 250);
    await polling();
    expect(rec.events.map((e) => e.text)).toEqual(Array.from({ length: 250 }, (_, i) => `missed ${i}`));
    expect(h.fake.requests.filter((r) => r.path.endsWith('/messages')).length).toBeGreaterThanOrEqual(2);
    expect(logText(h.lines)).toContain('a limited timeline');
  });

  it('the token does not move past a message the gateway could not store: the batch is read again', async () => {
    const room = h.fake.directRoom(ALICE);
    const state = memoryState();
    const rec = recordingSink(state);
    await h.adapter({ state }).start(rec.sink);
    await polling();
    const before = state.values.get(NEXT_BATCH_KEY);
    rec.failNext(1);
    const sent = h.fake.message(room, ALICE, 'keep me');
    await eventually(() => rec.events.length === 1);
    expect(rec.attempts.map((e) => e.messageId)).toEqual([sent.event_id, sent.event_id]);
    expect(state.values.get(NEXT_BATCH_KEY)).not.toBe(before);
    expect(logText(h.lines)).toContain('database is locked');
  });

  it('a stored token the server refuses (400) is dropped: a warning, then a fresh start', async () => {
    const state = memoryState({ [NEXT_BATCH_KEY]: 'token-of-another-server' });
    const adapter = h.adapter({ state });
    await adapter.start(recordingSink(state).sink);
    await polling();
    expect(logText(h.lines)).toContain('refused the stored sync token');
    expect(state.values.get(NEXT_BATCH_KEY)).toMatch(/^s\d+$/);
    expect(adapter.status().state).toBe('connected');
  });

  it('a next_batch a URL cannot carry (a lone surrogate) is refused, the stored token kept', async () => {
    const state = memoryState();
    const adapter = h.adapter({ state });
    await adapter.start(recordingSink(state).sink);
    await polling();
    const token = state.values.get(NEXT_BATCH_KEY);
    h.fake.nextSyncRaw('{"next_batch": "\\ud800"}');
    await eventually(() => logText(h.lines).includes('without a usable next_batch'));
    await polling();
    expect(state.values.get(NEXT_BATCH_KEY)).toBe(token);
  });

  it('a malformed sync answer is an error, then the next sync goes on', async () => {
    const room = h.fake.directRoom(ALICE);
    const rec = recordingSink();
    const adapter = h.adapter();
    await adapter.start(rec.sink);
    await polling();
    h.fake.nextSyncRaw('{"rooms": {"join": ');
    h.fake.message(room, ALICE, 'one');
    await eventually(() => rec.events.length === 1);
    h.fake.message(room, ALICE, 'two');
    await eventually(() => rec.events.length === 2);
    expect(logText(h.lines)).toMatch(/matrix: connection error/);
    expect(adapter.status().state).toBe('connected');
  });
});

describe('sending', () => {
  it('a send repeated with the same idempotency key is posted once (the server answers from its transaction cache)', async () => {
    const room = h.fake.directRoom(ALICE);
    const adapter = h.adapter();
    const message = { chatId: room, text: '<strong>hi</strong>', formatted: true, idempotencyKey: '1k.lx9' };
    const first = await adapter.send(message);
    const again = await adapter.send({ ...message, mayRepeat: true });
    expect(first).toEqual(again);
    expect(h.fake.messages()).toHaveLength(1);
    expect(h.fake.txnRepeats()).toBe(1);
    expect(h.fake.messages()[0]).toMatchObject({
      txnId: 'hermes.1k.lx9',
      content: {
        msgtype: 'm.text',
        body: 'hi',
        format: 'org.matrix.custom.html',
        formatted_body: '<strong>hi</strong>',
      },
    });
  });

  it('a 502 given after the server posted: the retry with the same key gets the posted event, nothing twice', async () => {
    const room = h.fake.directRoom(ALICE);
    const adapter = h.adapter();
    h.fake.failNextSends(1, 502, { posted: true });
    const message = { chatId: room, text: 'once', formatted: false, idempotencyKey: '2a.lx9' };
    expect(await adapter.send(message)).toMatchObject({ ok: false, error: 'transient', status: 502 });
    const retry = await adapter.send({ ...message, mayRepeat: true });
    expect(retry).toEqual({ ok: true, messageIds: [h.fake.messages()[0]?.eventId] });
    expect(h.fake.messages()).toHaveLength(1);
  });

  it('edits replace (m.replace); a reaction replacing another redacts it', async () => {
    const room = h.fake.directRoom(ALICE);
    const adapter = h.adapter();
    const sent = await adapter.send({ chatId: room, text: 'draft', formatted: false });
    const id = sent.ok ? (sent.messageIds[0] ?? '') : '';
    expect(await adapter.edit?.({ chatId: room, messageId: id, text: '<em>final</em>', formatted: true })).toEqual({
      ok: true,
      messageIds: [id],
    });
    expect(h.fake.edits()).toEqual([
      {
        target: id,
        content: {
          msgtype: 'm.text',
          body: 'final',
          format: 'org.matrix.custom.html',
          formatted_body: '<em>final</em>',
        },
      },
    ]);
    const user = h.fake.message(room, ALICE, 'react to me');
    const target = String(user.event_id);
    await adapter.react?.({ chatId: room, messageId: target, emoji: '👀' });
    await adapter.react?.({ chatId: room, messageId: target, emoji: '✅', replaces: '👀' });
    expect(h.fake.reactionsOn(target)).toEqual(['✅']);
    expect(h.fake.redactions).toHaveLength(1);
  });

  it('a reaction whose predecessor is gone already (404 on the redaction) is still set', async () => {
    const room = h.fake.directRoom(ALICE);
    const adapter = h.adapter();
    const target = String(h.fake.message(room, ALICE, 'react to me').event_id);
    await adapter.react?.({ chatId: room, messageId: target, emoji: '👀' });
    h.fake.sent.splice(0, h.fake.sent.length); // the server no longer has it: its redaction answers 404
    expect(await adapter.react?.({ chatId: room, messageId: target, emoji: '✅', replaces: '👀' })).toMatchObject({
      ok: true,
    });
    expect(h.fake.reactionsOn(target)).toEqual(['✅']);
    expect(h.fake.redactions).toHaveLength(0);
  });

  it('a 429 is rate_limited with the server’s retry_after_ms; a room the bot is not in is forbidden', async () => {
    const room = h.fake.directRoom(ALICE);
    const adapter = h.adapter();
    h.fake.rateLimitNextSend(1_500);
    expect(await adapter.send({ chatId: room, text: 'x', formatted: false })).toMatchObject({
      ok: false,
      error: 'rate_limited',
      retryAfterMs: 1_500,
    });
    expect(await adapter.send({ chatId: '!nowhere:hermes.test', text: 'x', formatted: false })).toMatchObject({
      ok: false,
      error: 'forbidden',
    });
  });

  it('files: uploaded, then sent as an image, a voice message or a file', async () => {
    const room = h.fake.directRoom(ALICE);
    const adapter = h.adapter();
    const path = join(h.cacheDir, 'note.opus');
    writeFileSync(path, Buffer.from('OggS fake opus'));
    const media = {
      chatId: room,
      path,
      fileName: 'note.opus',
      mimeType: 'audio/ogg',
      kind: 'voice' as const,
      size: 14,
    };
    expect(await adapter.sendMedia?.(media)).toMatchObject({ ok: true });
    const [upload] = h.fake.uploads;
    expect(upload).toMatchObject({ contentType: 'audio/ogg', fileName: 'note.opus' });
    expect(h.fake.messages()[0]?.content).toMatchObject({
      msgtype: 'm.audio',
      url: upload?.mxc,
      info: { mimetype: 'audio/ogg', size: 14 },
      'org.matrix.msc3245.voice': {},
    });
    h.fake.failNextUpload();
    expect(await adapter.sendMedia?.({ ...media, kind: 'document' })).toMatchObject({ ok: false, error: 'too_long' });
  });
});

describe('rooms', () => {
  it('threads: an answer in a thread marks it; a follow-up there addresses the bot', async () => {
    const group = h.fake.groupRoom([ALICE, BOB]);
    const rec = recordingSink();
    const adapter = h.adapter();
    await adapter.start(rec.sink);
    await polling();
    const root = h.fake.message(group, ALICE, 'question', { mention: 'pill' });
    await eventually(() => rec.events.length === 1);
    expect(rec.events[0]?.source).toMatchObject({ chatType: 'group', mentioned: true });
    const rootId = String(root.event_id);
    await adapter.send({ chatId: group, threadId: rootId, text: 'in the thread', formatted: false });
    expect(h.fake.messages()[0]?.content['m.relates_to']).toMatchObject({ rel_type: 'm.thread', event_id: rootId });
    h.fake.message(group, BOB, 'and a follow-up', { threadRoot: rootId });
    await eventually(() => rec.events.length === 2);
    expect(rec.events[1]?.source).toMatchObject({ threadId: rootId, repliedToBot: true });
  });

  it('a reply to a bot message the adapter does not remember is asked of the server', async () => {
    const group = h.fake.groupRoom([ALICE, BOB]);
    const earlier = await h.adapter().send({ chatId: group, text: 'from an earlier run', formatted: false });
    const botEvent = earlier.ok ? (earlier.messageIds[0] ?? '') : '';
    const rec = recordingSink();
    await h.adapter().start(rec.sink); // a new adapter: its memory of sent events is empty
    await polling();
    h.fake.message(group, ALICE, 'about that', { replyTo: botEvent, replyToSender: ALICE.userId });
    await eventually(() => rec.events.length === 1);
    expect(rec.events[0]?.source.repliedToBot).toBe(true);
    expect(h.fake.requests.some((r) => r.path.includes('/event/'))).toBe(true);
  });

  it('an invite is joined and the room answered; with auto_join off it is not joined', async () => {
    const rec = recordingSink();
    await h.adapter().start(rec.sink);
    await polling();
    const room = h.fake.invite(ALICE, { direct: true });
    await eventually(() => h.fake.joins.includes(room));
    h.fake.message(room, ALICE, 'thanks for joining');
    await eventually(() => rec.events.length === 1);
    expect(rec.events[0]?.source).toMatchObject({ chatId: room, chatType: 'dm' });
    await h.close();
    h = await startHarness();
    await h.adapter({ settings: { auto_join: false } }).start(recordingSink().sink);
    await polling();
    h.fake.invite(BOB);
    await eventually(() => logText(h.lines).includes('auto_join is off'));
    expect(h.fake.joins).toHaveLength(0);
  });

  it('an encrypted room: the bot says once that it cannot read it, and nothing is accepted', async () => {
    const room = h.fake.groupRoom([ALICE, BOB], { encrypted: true });
    const state = memoryState();
    const rec = recordingSink(state);
    await h.adapter({ state }).start(rec.sink);
    await polling();
    h.fake.encrypted(room, ALICE);
    h.fake.encrypted(room, BOB);
    await eventually(() => h.fake.messages().length === 1);
    h.fake.message(h.fake.directRoom(ALICE), ALICE, 'marker');
    await eventually(() => rec.events.length === 1);
    expect(rec.events.map((e) => e.text)).toEqual(['marker']);
    expect(h.fake.messages().map((m) => m.content.body)).toEqual([E2EE_NOTICE]);
  });
});

describe('files users send', () => {
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

  it('downloaded through the authenticated media endpoint (Matrix 1.11)', async () => {
    const room = h.fake.directRoom(ALICE);
    const rec = recordingSink();
    await h.adapter().start(rec.sink);
    await polling();
    h.fake.file(room, ALICE, 'a caption', { data: png, mimeType: 'image/png', name: 'dot.png', msgtype: 'm.image' });
    await eventually(() => rec.events.length === 1);
    const [attachment] = rec.events[0]?.attachments ?? [];
    expect(attachment).toMatchObject({ kind: 'photo', fileName: 'dot.png', size: png.length });
    expect(readFileSync(attachment?.path ?? '')).toEqual(png);
    expect(rec.events[0]?.text).toBe('a caption');
    expect(h.fake.requests.some((r) => r.path.startsWith('/_matrix/client/v1/media/download/'))).toBe(true);
  });

  it('a server older than 1.11: through /_matrix/media/v3/download', async () => {
    await h.close();
    h = await startHarness({ versions: ['v1.9', 'v1.10'] });
    const room = h.fake.directRoom(ALICE);
    const rec = recordingSink();
    await h.adapter().start(rec.sink);
    await polling();
    h.fake.file(room, ALICE, '', { data: png, mimeType: 'image/png', name: 'dot.png', msgtype: 'm.image' });
    await eventually(() => rec.events.length === 1);
    expect(readFileSync(rec.events[0]?.attachments?.[0]?.path ?? '')).toEqual(png);
    expect(h.fake.requests.some((r) => r.path.startsWith('/_matrix/media/v3/download/'))).toBe(true);
  });
});

describe('credentials', () => {
  it('a refused token: the status is error with the server’s errcode, never the token', async () => {
    const adapter = h.adapter({ env: { MATRIX_ACCESS_TOKEN: 'syt_wrong_token_value' } });
    await adapter.start(recordingSink().sink);
    const status = adapter.status();
    expect(status.state).toBe('error');
    expect(status.error).toContain('M_UNKNOWN_TOKEN');
    expect(logText(h.lines)).not.toContain('syt_wrong_token_value');
  });

  it('MATRIX_USER_ID that is not the token’s user is an error naming both', async () => {
    const adapter = h.adapter({ env: { MATRIX_USER_ID: '@someone:else.org' } });
    await adapter.start(recordingSink().sink);
    expect(adapter.status()).toMatchObject({ state: 'error', error: expect.stringContaining('@someone:else.org') });
  });
});

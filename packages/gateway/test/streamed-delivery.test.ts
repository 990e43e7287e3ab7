// The end of a streamed answer against a real outbox (SQLite): the final text is written to the
// outbox before the final edit; a crash between the two is recovered by editing the streamed
// message (never a second answer); a refused edit sends the chunk as a new message.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EditMessage, OutboundMedia, OutboundMessage, PlatformAdapter, SendResult } from '@hermes/protocol';
import { asyncSqliteStore, openStore, type Store } from '@hermes/store';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../../../test/helpers/wait-for.js';
import { deliverStreamed, resendAnswer } from '../src/delivery/deliver-streamed.js';
import { EditCadence, LiveStream } from '../src/delivery/live-stream.js';
import { streamIds, streamIdsKey } from '../src/delivery/stream-ids.js';

const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, fatal() {}, child: () => silent };

interface Memory {
  adapter: PlatformAdapter;
  sends: OutboundMessage[];
  edits: EditMessage[];
}

function memoryAdapter(edit: (message: EditMessage) => Promise<SendResult>): Memory {
  const sends: OutboundMessage[] = [];
  const edits: EditMessage[] = [];
  const adapter: PlatformAdapter = {
    name: 'memory',
    capabilities: { maxMessageLength: 500, formatting: 'plain', editing: true, typing: false, threads: false },
    start: async () => {},
    stop: async () => {},
    send: async (message) => {
      sends.push(message);
      return { ok: true, messageIds: [`sent-${sends.length}`] };
    },
    edit: async (message) => {
      const result = await edit(message);
      if (result.ok) edits.push(message);
      return result;
    },
    format: (text) => `<${text}>`,
    status: () => ({ state: 'connected', since: 0 }),
  };
  return { adapter, sends, edits };
}

function setUp(memory: Memory): { store: Store; inboxId: number; options: Parameters<typeof deliverStreamed>[0] } {
  const store = openStore(':memory:');
  const accepted = store.inbox.accept('memory', 'm-1', { text: 'hi' });
  if (!accepted.accepted) throw new Error('not accepted');
  const options = {
    adapters: new Map([['memory', memory.adapter]]),
    commit: asyncSqliteStore(store).commit,
    logger: silent,
    sleep: async () => {},
  };
  return { store, inboxId: accepted.id, options };
}

describe('streamed answers: the final edit', () => {
  it('a crash after the outbox write and before the final edit: recovery edits the streamed message, sends nothing', async () => {
    let crash = true;
    const memory = memoryAdapter(async () => {
      if (crash) throw new Error('the process died here');
      return { ok: true, messageIds: [] };
    });
    const { store, inboxId, options } = setUp(memory);
    const ids = streamIds(asyncSqliteStore(store).platformState.get);
    store.platformState.set('memory', streamIdsKey(inboxId), JSON.stringify(['streamed-1'])); // the stream's first send was remembered
    const target = { platform: 'memory', chatId: 'c1', inboxId };
    await expect(deliverStreamed(options, target, 'The **whole** answer.', ['streamed-1'])).rejects.toThrow('died');
    // the final text is in the outbox, not yet marked sent
    const written = store.outbox.forInbox(inboxId);
    expect(written.map((r) => [r.text, r.status])).toEqual([['<The **whole** answer.>', 'pending']]);
    crash = false;
    await resendAnswer(options, target, written, ids); // the next start's recovery
    expect(memory.sends).toHaveLength(0);
    expect(memory.edits.map((e) => [e.messageId, e.text, e.formatted])).toEqual([
      ['streamed-1', '<The **whole** answer.>', true],
    ]);
    const [row] = store.outbox.forInbox(inboxId);
    expect(row?.status).toBe('sent');
    expect(row?.platformMessageId).toBe('streamed-1');
    expect(await ids.read('memory', inboxId)).toEqual([]); // forgotten once delivered
    store.close();
  });

  it('a 429 on the final edit is waited out; a refused edit sends the chunk as a new message', async () => {
    const answers: SendResult[] = [
      { ok: false, error: 'rate_limited', message: '429', retryAfterMs: 3_000 },
      { ok: true, messageIds: [] },
      { ok: false, error: 'not_found', message: 'message to edit not found' },
    ];
    const memory = memoryAdapter(async () => answers.shift() ?? { ok: true, messageIds: [] });
    const { store, inboxId, options } = setUp(memory);
    const waits: number[] = [];
    const sleepy = { ...options, sleep: async (ms: number) => void waits.push(ms) };
    const target = { platform: 'memory', chatId: 'c1', inboxId };
    const first = await deliverStreamed(sleepy, target, 'first answer', ['s-1']);
    expect(first).toEqual({ sent: 1, failed: 0, errors: [] });
    expect(waits).toEqual([3_000]);
    const accepted = store.inbox.accept('memory', 'm-2', { text: 'again' });
    if (!accepted.accepted) throw new Error('not accepted');
    await deliverStreamed(sleepy, { ...target, inboxId: accepted.id }, 'second answer', ['s-2']);
    expect(memory.sends.map((s) => s.text)).toEqual(['<second answer>']); // not lost
    store.close();
  });
});

describe('streamed answers: the live stream', () => {
  it('sends at the first tokens, then edits at most once per interval; remembers the ids before going on', async () => {
    const memory = memoryAdapter(async () => ({ ok: true, messageIds: [] }));
    let now = 0;
    const remembered: string[][] = [];
    const stream = new LiveStream({
      adapter: memory.adapter,
      chatId: 'c1',
      intervalMs: 1_000,
      cadence: new EditCadence(),
      existingIds: [],
      remember: async (ids) => void remembered.push([...ids]),
      redact: (text) => text.replaceAll('sk-secret', '[REDACTED]'),
      logger: silent,
      now: () => now,
      toolProgress: false,
    });
    stream.delta('Hello');
    await waitFor(() => remembered.length > 0, { what: 'the first send remembered' });
    expect(memory.sends.map((s) => s.text)).toEqual(['Hello']);
    expect(remembered).toEqual([['sent-1']]);
    stream.delta(' world');
    await waitFor(() => memory.edits.length > 0, { what: 'the first edit' });
    expect(memory.edits.map((e) => e.text)).toEqual(['Hello world']); // the first edit: no earlier edit in this chat
    now = 100;
    stream.delta(' and sk-secret');
    expect(memory.edits).toHaveLength(1); // within the interval: waits (an edit now would start at once)
    await stream.finish();
    expect(memory.edits).toHaveLength(1); // finished: the final delivery carries the rest
    expect(JSON.stringify(memory.sends)).not.toContain('sk-secret');
  });

  it('an answer that may still be [SILENT] is not shown', async () => {
    const memory = memoryAdapter(async () => ({ ok: true, messageIds: [] }));
    const stream = new LiveStream({
      adapter: memory.adapter,
      chatId: 'c1',
      intervalMs: 1_000,
      cadence: new EditCadence(),
      existingIds: [],
      remember: async () => {},
      redact: (text) => text,
      logger: silent,
      now: () => 0,
      toolProgress: false,
      holdBack: '[SILENT]',
    });
    stream.delta('[SIL');
    stream.delta('ENT]');
    await stream.finish(); // waits for an update under way: a send now would show
    expect(memory.sends).toHaveLength(0);
  });

  it('a streamed answer with a MEDIA line: the text is edited in without the line, the file uploaded once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hermes-streamed-media-'));
    const png = join(dir, 'chart.png');
    writeFileSync(png, 'png');
    const plain = memoryAdapter(async () => ({ ok: true, messageIds: [] }));
    const uploads: OutboundMedia[] = [];
    let crash = false;
    const adapter: PlatformAdapter = {
      ...plain.adapter,
      capabilities: { ...plain.adapter.capabilities, media: { maxUploadBytes: 1000 } },
      sendMedia: async (media) => {
        if (crash) throw new Error('the process died here');
        uploads.push(media);
        return { ok: true, messageIds: ['file-1'] };
      },
    };
    const memory = { ...plain, adapter };
    const { store, inboxId, options } = setUp(memory);
    const media = { hermesHomes: [join(dir, 'home')], downloadDir: join(dir, 'cache'), maxBytes: 1000 };
    const target = { platform: 'memory', chatId: 'c1', inboxId };
    const result = await deliverStreamed({ ...options, media }, target, `Here it is.\nMEDIA: ${png}`, ['streamed-1']);
    expect(result.errors).toEqual([]);
    expect(result).toMatchObject({ sent: 2, failed: 0 });
    expect(memory.edits.map((e) => [e.messageId, e.text])).toEqual([['streamed-1', '<Here it is.>']]);
    expect(memory.sends).toHaveLength(0);
    expect(uploads.map((u) => u.path)).toEqual([png]);
    expect(store.outbox.forInbox(inboxId).map((r) => [r.status, r.kind ?? 'text'])).toEqual([
      ['sent', 'text'],
      ['sent', 'media'],
    ]);

    // the next answer: the process dies while uploading its file; recovery uploads it, edits nothing more
    crash = true;
    const next = store.inbox.accept('memory', 'm-2', { text: 'again' });
    if (!next.accepted) throw new Error('not accepted');
    const ids = streamIds(asyncSqliteStore(store).platformState.get);
    store.platformState.set('memory', streamIdsKey(next.id), JSON.stringify(['streamed-2']));
    const second = { platform: 'memory', chatId: 'c1', inboxId: next.id };
    await expect(
      deliverStreamed({ ...options, media }, second, `Again.\nMEDIA: ${png}`, ['streamed-2']),
    ).rejects.toThrow('died');
    crash = false;
    await resendAnswer({ ...options, media }, second, store.outbox.forInbox(next.id), ids);
    expect(memory.edits.map((e) => [e.messageId, e.text])).toEqual([
      ['streamed-1', '<Here it is.>'],
      ['streamed-2', '<Again.>'],
    ]);
    expect(memory.sends).toHaveLength(0);
    expect(uploads.map((u) => u.path)).toEqual([png, png]);
    expect(store.outbox.forInbox(next.id).map((r) => r.status)).toEqual(['sent', 'sent']);
    store.close();
  });
});

// Socket Mode end to end (fake Slack → real Bolt/SocketModeClient → adapter → sink): translation,
// acks, redeliveries, the disconnect envelope, a deaf socket, malformed payloads.
import type { MessageEvent, PlatformAdapter } from '@hermes/protocol';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BOT_USER, eventually, type Harness, pause, recordingSink, startHarness } from './harness.js';

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
  recorder.attempts.length = 0;
});

async function next(): Promise<MessageEvent> {
  await eventually(() => recorder.events.length > 0);
  const event = recorder.events.shift();
  if (event === undefined) throw new Error('no event');
  return event;
}

describe('slack socket mode: connection', () => {
  it('connects over the socket from apps.connections.open with the app token', () => {
    expect(adapter.status().state).toBe('connected');
    expect(h.fake.connectionCount()).toBe(1);
    expect(h.fake.openConnections()).toBe(1);
    const open = h.fake.calls.find((call) => call.method === 'apps.connections.open');
    expect(open?.auth).toBe('app');
    expect(h.fake.calls.find((call) => call.method === 'auth.test')?.auth).toBe('bot');
  });

  it('acks every envelope', async () => {
    const { message } = h.fake.pushMessage({ channel: 'D100', user: 'U1', text: 'ack me' });
    await next();
    const ack = await h.fake.waitForAck(message.envelope_id);
    expect(ack.payload).toEqual({});
  });
});

describe('slack socket mode: translation', () => {
  it('turns an im message into a dm event keeping the raw event body', async () => {
    const { message } = h.fake.pushMessage({ channel: 'D100', user: 'U1', text: 'hello &lt;there&gt; &amp; you' });
    const event = await next();
    const ts = String((message.payload.event as { ts: string }).ts);
    expect(event).toMatchObject({
      platform: 'slack',
      kind: 'text',
      messageId: `D100:${ts}`,
      text: 'hello <there> & you',
      internal: false,
      source: {
        platform: 'slack',
        chatId: 'D100',
        chatType: 'dm',
        userId: 'U1',
        mentioned: false,
        repliedToBot: false,
      },
    });
    expect(event.source.threadId).toBeUndefined();
    expect(event.raw).toMatchObject({ type: 'event_callback', event_id: message.payload.event_id });
  });

  it('marks a channel message that mentions the bot, strips the mention, and answers in its thread', async () => {
    const { message } = h.fake.pushMessage({ channel: 'C200', user: 'U1', text: `<@${BOT_USER}> /new` });
    const event = await next();
    const ts = String((message.payload.event as { ts: string }).ts);
    expect(event.text).toBe('/new');
    expect(event.source).toMatchObject({ chatId: 'C200', chatType: 'group', threadId: ts, mentioned: true });
  });

  it('hands over a message once although Slack sends both its message and app_mention events', async () => {
    const { message, mention } = h.fake.pushMessage({ channel: 'C200', user: 'U1', text: `hey <@${BOT_USER}>` });
    expect(mention).toBeDefined();
    await next();
    await h.fake.waitForAck(mention?.envelope_id ?? '');
    await h.fake.waitForAck(message.envelope_id);
    await pause(50);
    expect(recorder.events).toHaveLength(0);
    expect(recorder.attempts).toHaveLength(1);
  });

  it('does not mark a channel message without the mention (the gateway decides to stay silent)', async () => {
    h.fake.pushMessage({ channel: 'C200', user: 'U1', text: 'just chatting' });
    const event = await next();
    expect(event.source).toMatchObject({ chatType: 'group', mentioned: false, repliedToBot: false });
  });

  it('treats follow-ups in a thread the bot answered as addressed to it', async () => {
    const { message } = h.fake.pushMessage({ channel: 'C300', user: 'U1', text: `<@${BOT_USER}> start` });
    const first = await next();
    const root = String((message.payload.event as { ts: string }).ts);
    expect(first.source.threadId).toBe(root);
    const sent = await adapter.send({ chatId: 'C300', threadId: root, text: 'answer', formatted: true });
    expect(sent.ok).toBe(true);
    expect(h.fake.posted.at(-1)).toMatchObject({ channel: 'C300', thread_ts: root, mrkdwn: true });
    h.fake.pushMessage({ channel: 'C300', user: 'U2', text: 'and then?', threadTs: root });
    const followUp = await next();
    expect(followUp.source).toMatchObject({
      chatId: 'C300',
      chatType: 'thread',
      threadId: root,
      mentioned: false,
      repliedToBot: true,
    });
    h.fake.pushMessage({ channel: 'C300', user: 'U2', text: 'elsewhere', threadTs: h.fake.nextTs() });
    expect((await next()).source).toMatchObject({ chatType: 'thread', repliedToBot: false });
  });

  it('ignores bot posts, its own posts, edits and deletions', async () => {
    h.fake.pushMessage({ channel: 'C200', user: 'U9', text: 'from a bot', botId: 'B999' });
    h.fake.pushMessage({ channel: 'C200', user: BOT_USER, text: 'my own echo' });
    // its own post mentioning itself comes as a message and an app_mention: neither is delivered
    expect(h.fake.pushMessage({ channel: 'C200', user: BOT_USER, text: `me: <@${BOT_USER}>` }).mention).toBeDefined();
    h.fake.pushMessage({ channel: 'C200', user: 'U1', text: 'edited', subtype: 'message_changed' });
    h.fake.pushMessage({ channel: 'C200', user: 'U1', text: '', subtype: 'message_deleted' });
    const { message } = h.fake.pushMessage({ channel: 'D100', user: 'U1', text: 'after the noise' });
    expect((await next()).text).toBe('after the noise');
    await h.fake.waitForAck(message.envelope_id);
    expect(recorder.attempts).toHaveLength(1);
  });
});

describe('slack socket mode: delivery guarantees', () => {
  it('processes a redelivered envelope once (same event, new envelope, retry_attempt 1)', async () => {
    const { message } = h.fake.pushMessage({ channel: 'D100', user: 'U1', text: 'only once' });
    await next();
    const again = h.fake.redeliver(message);
    expect(again.retry_attempt).toBe(1);
    expect(again.payload.event_id).toBe(message.payload.event_id);
    await h.fake.waitForAck(again.envelope_id);
    await pause(50);
    expect(recorder.attempts).toHaveLength(1);
  });

  it('skips a malformed event (logged) and a frame that is not JSON, and keeps serving', async () => {
    const broken = h.fake.pushEvent({ type: 'message', channel_type: 'im', text: 'no channel, no user, no ts' });
    h.fake.pushRaw('{ this is not json');
    h.fake.pushEvent({ type: 'message', channel: 'D100', user: 'U1', ts: 'not-a-ts', text: 'bad ts' });
    await h.fake.waitForAck(broken.envelope_id);
    h.fake.pushMessage({ channel: 'D100', user: 'U1', text: 'still here' });
    expect((await next()).text).toBe('still here');
    expect(recorder.attempts).toHaveLength(1);
    const warnings = h.lines.filter((line) => line.level === 'warn' && /malformed event skipped/.test(line.msg ?? ''));
    expect(warnings.map((line) => line.msg)).toEqual([
      'slack: malformed event skipped: missing or invalid channel, user, ts',
      'slack: malformed event skipped: missing or invalid ts',
    ]);
    expect(adapter.status().state).toBe('connected');
  });

  it('acks and skips (logged) an envelope the SDKs cannot dispatch, whether its reader throws or not', async () => {
    const envelope = (id: string, payload: unknown) =>
      JSON.stringify({ envelope_id: id, type: 'events_api', payload, accepts_response_payload: false });
    const event = { type: 'message', channel: 'D100', user: 'U1', ts: '1700000000.000100', text: 'x' };
    h.fake.pushRaw(envelope('env-no-event', { type: 'event_callback' })); // the SDK's reader throws
    h.fake.pushRaw(envelope('env-null', null)); // it throws too
    h.fake.pushRaw(envelope('env-not-callback', { type: 'app_rate_limited', event })); // Bolt would drop it unacked
    h.fake.pushRaw(envelope('env-untyped', { type: 'event_callback', event: { channel: 'D100' } }));
    for (const id of ['env-no-event', 'env-null', 'env-not-callback', 'env-untyped']) await h.fake.waitForAck(id);
    h.fake.pushMessage({ channel: 'D100', user: 'U1', text: 'after the broken envelopes' });
    expect((await next()).text).toBe('after the broken envelopes');
    expect(recorder.attempts).toHaveLength(1);
    const skipped = h.lines.filter((line) => /malformed envelope acked and skipped/.test(line.msg ?? ''));
    const reasons = skipped.map((line) => line.msg?.replace('slack: malformed envelope acked and skipped: ', ''));
    expect(reasons.sort()).toEqual([
      'payload is not an object',
      'payload type "app_rate_limited"',
      'payload.event is not an event',
      'payload.event is not an event',
    ]);
    expect(h.fake.acks.filter((ack) => ack.envelopeId.startsWith('env-'))).toHaveLength(4);
  });

  it('acks an envelope only once the gateway accepted its event (a crash before that loses nothing)', async () => {
    const release = recorder.hold();
    const { message } = h.fake.pushMessage({ channel: 'D100', user: 'U1', text: 'ack after accept' });
    await eventually(() => recorder.attempts.length === 1);
    await pause(150);
    expect(h.fake.acks.some((ack) => ack.envelopeId === message.envelope_id)).toBe(false);
    release();
    expect((await next()).text).toBe('ack after accept');
    await h.fake.waitForAck(message.envelope_id);
  });

  it('leaves an envelope the gateway refused unacked; the redelivery is accepted once and acked', async () => {
    recorder.failNext(3); // the first try and both in-process retries
    const { message } = h.fake.pushMessage({ channel: 'D100', user: 'U1', text: 'refused once' });
    await eventually(() => recorder.attempts.length === 3);
    await pause(150);
    expect(recorder.events).toEqual([]);
    expect(h.fake.acks.some((ack) => ack.envelopeId === message.envelope_id)).toBe(false);
    const again = h.fake.redeliver(message);
    expect((await next()).text).toBe('refused once');
    await h.fake.waitForAck(again.envelope_id);
    expect(h.fake.acks.some((ack) => ack.envelopeId === message.envelope_id)).toBe(false);
    expect(recorder.events).toEqual([]);
  });

  it('retries the sink in process when it fails, and hands the event over once', async () => {
    recorder.failNext(2);
    h.fake.pushMessage({ channel: 'D100', user: 'U1', text: 'sink hiccup' });
    expect((await next()).text).toBe('sink hiccup');
    expect(recorder.attempts).toHaveLength(3);
  });
});

describe('slack socket mode: reconnecting', () => {
  it('reconnects at once after a disconnect envelope, closing the old socket first', async () => {
    const before = h.fake.connectionCount();
    const started = Date.now();
    h.fake.disconnect('refresh_requested');
    await h.fake.waitForConnections(before + 1);
    // the adapter owns reconnecting, at once: the SDK, owning it, would first wait out its ping timeout
    expect(Date.now() - started).toBeLessThan(1_000);
    await eventually(() => adapter.status().state === 'connected' && h.fake.openConnections() === 1);
    expect(h.fake.connectionCount()).toBe(before + 1);
    expect(h.fake.maxOpenConnections()).toBe(1);
    expect(h.fake.closes.at(-1)?.code).toBe(1000); // closed with a handshake, as Slack asks
    expect(h.lines.some((line) => line.msg === 'slack: socket closed; reconnecting')).toBe(true);
    h.fake.pushMessage({ channel: 'D100', user: 'U1', text: 'after refresh' });
    expect((await next()).text).toBe('after refresh');
  });

  it('reconnects when Slack closes the socket itself', async () => {
    const before = h.fake.connectionCount();
    await h.fake.closeSockets(1001);
    await h.fake.waitForConnections(before + 1);
    await eventually(() => adapter.status().state === 'connected');
    expect(h.fake.maxOpenConnections()).toBe(1);
    h.fake.pushMessage({ channel: 'D100', user: 'U1', text: 'after the close' });
    expect((await next()).text).toBe('after the close');
  });

  it('keeps retrying a reconnect whose apps.connections.open fails, until it is connected again', async () => {
    const before = h.fake.connectionCount();
    h.fake.failNext('apps.connections.open', { status: 500 });
    h.fake.failNext('apps.connections.open', { network: true });
    h.fake.disconnect('refresh_requested');
    await h.fake.waitForConnections(before + 1);
    await eventually(() => adapter.status().state === 'connected');
    const opens = h.fake.calls.filter((call) => call.method === 'apps.connections.open');
    expect(opens.slice(-3).map((call) => call.status)).toEqual([500, 0, 200]);
    h.fake.pushMessage({ channel: 'D100', user: 'U1', text: 'after the outage' });
    expect((await next()).text).toBe('after the outage');
  });

  it('replaces a deaf socket within the liveness bound: one new socket, never two open, next message answered once', async () => {
    const before = h.fake.connectionCount();
    const started = Date.now();
    h.fake.silence();
    const { message } = h.fake.pushMessage({ channel: 'D100', user: 'U1', text: 'while deaf' });
    expect(h.fake.queued()).toHaveLength(1); // nothing reaches a deaf socket; Slack holds it
    await h.fake.waitForConnections(before + 1, 5_000);
    const elapsed = Date.now() - started;
    // pings every 400/3 ms; the socket is closed once no pong came for 400 ms, then replaced at once
    // (the bound is generous for loaded machines; a deaf socket nobody notices stays deaf for good)
    expect(elapsed).toBeLessThan(5 * 400);
    expect((await next()).text).toBe('while deaf');
    await h.fake.waitForAck(message.envelope_id);
    await pause(100);
    expect(h.fake.connectionCount()).toBe(before + 1);
    expect(h.fake.openConnections()).toBe(1);
    expect(h.fake.maxOpenConnections()).toBe(1);
    expect(recorder.attempts).toHaveLength(1);
    expect(adapter.status().state).toBe('connected');
  });
});

// The fake Discord itself, driven with plain `ws` and fetch (no discord.js): the protocol facts its users rely on.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type FakeDiscord, startFakeDiscord } from './discord-server.js';

const TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAwMQ.GhErMs.fake-server-test-token-0123456789abcdef';
const ADA = { id: '100000000000000001', name: 'Ada' };

let fake: FakeDiscord;
beforeAll(async () => {
  fake = await startFakeDiscord({ token: TOKEN, heartbeatIntervalMs: 45_000 });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

type Frame = { op: number; d: unknown; s: number | null; t: string | null };

/** A raw gateway client: every frame it receives, and a way to wait for the next one matching. */
async function gatewayClient(path = '/?v=10&encoding=json') {
  const ws = new WebSocket(`${fake.gatewayUrl}${path}`);
  const frames: Frame[] = [];
  const waiters = new Set<() => void>();
  let closed: { code: number } | undefined;
  ws.on('message', (data) => {
    frames.push(JSON.parse(data.toString()));
    for (const wake of [...waiters]) wake();
  });
  ws.on('close', (code) => {
    closed = { code };
    for (const wake of [...waiters]) wake();
  });
  const until = <T>(find: () => T | undefined): Promise<T> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('gateway client: timed out')), 2_000);
      const wake = (): void => {
        const found = find();
        if (found === undefined) return;
        clearTimeout(timer);
        waiters.delete(wake);
        resolve(found);
      };
      waiters.add(wake);
      wake();
    });
  return {
    ws,
    frames,
    send: (payload: unknown) => ws.send(JSON.stringify(payload)),
    frame: (match: (frame: Frame) => boolean) => until(() => frames.find(match)),
    closed: () => until(() => closed),
  };
}

async function identified() {
  const client = await gatewayClient();
  await client.frame((f) => f.op === 10);
  client.send({ op: 2, d: { token: TOKEN, intents: 33281, properties: { os: 'linux' } } });
  const ready = await client.frame((f) => f.t === 'READY');
  await client.frame((f) => f.t === 'GUILD_CREATE');
  return { client, ready: ready.d as Record<string, unknown> };
}

const rest = (path: string, init: RequestInit = {}, auth = true) =>
  fetch(`${fake.apiBase}/v10${path}`, {
    ...init,
    headers: {
      'content-type': 'application/json',
      ...(auth ? { authorization: `Bot ${TOKEN}` } : {}),
      ...init.headers,
    },
  });

describe('fake discord gateway', () => {
  it('announces its gateway on /gateway/bot, to an authorized bot only', async () => {
    expect((await rest('/gateway/bot', {}, false)).status).toBe(401);
    const answer = await rest('/gateway/bot');
    expect(await answer.json()).toMatchObject({ url: fake.gatewayUrl, shards: 1 });
  });

  it('says HELLO, acks heartbeats, and answers IDENTIFY with READY then GUILD_CREATE in sequence', async () => {
    const client = await gatewayClient();
    const hello = await client.frame((f) => f.op === 10);
    expect(hello.d).toEqual({ heartbeat_interval: 45_000 });
    client.send({ op: 1, d: null });
    await client.frame((f) => f.op === 11);
    client.send({ op: 2, d: { token: TOKEN, intents: 1, properties: {} } });
    const ready = await client.frame((f) => f.t === 'READY');
    const guild = await client.frame((f) => f.t === 'GUILD_CREATE');
    expect(ready.s).toBe(1);
    expect(guild.s).toBe(2);
    expect(ready.d).toMatchObject({
      v: 10,
      user: { id: fake.bot.id, bot: true },
      resume_gateway_url: `${fake.gatewayUrl}/resume`,
      application: { id: fake.applicationId },
      guilds: [{ id: fake.guildId, unavailable: true }],
    });
    const channels = (guild.d as { channels: { id: string; type: number }[]; threads: { id: string; type: number }[] })
      .channels;
    expect(channels.map((channel) => channel.type)).toEqual([0, 0]);
    expect((guild.d as { threads: { id: string; type: number }[] }).threads).toEqual([
      expect.objectContaining({ id: fake.threadId, type: 11, parent_id: fake.textChannelIds[0] }),
    ]);
    expect(fake.ops.map((op) => op.op)).toEqual([1, 2]);
    client.ws.close(1000);
  });

  it.each([
    ['/?v=9&encoding=json', { token: TOKEN, intents: 1 }, 4012],
    ['/?v=10&encoding=etf', { token: TOKEN, intents: 1 }, 4002],
    ['/?v=10&encoding=json', { token: 'wrong', intents: 1 }, 4004],
    ['/?v=10&encoding=json', { token: TOKEN }, 4013],
  ])('closes %s with %j with the right code', async (path, identify, code) => {
    const client = await gatewayClient(path);
    client.ws.on('open', () => client.send({ op: 2, d: identify }));
    expect((await client.closed()).code).toBe(code);
  });

  it('closes an IDENTIFY asking for message content with 4014 when the app lacks the intent', async () => {
    const strict = await startFakeDiscord({ token: TOKEN, allowMessageContent: false });
    const ws = new WebSocket(`${strict.gatewayUrl}/?v=10&encoding=json`);
    ws.on('message', () => ws.send(JSON.stringify({ op: 2, d: { token: TOKEN, intents: 1 << 15 } })));
    const code = await new Promise((resolve) => ws.on('close', resolve));
    expect(code).toBe(4014);
    await strict.close();
  });

  it('numbers dispatches, and on RESUME replays what the dropped connection missed, then RESUMED', async () => {
    const { client, ready } = await identified();
    const first = fake.dmMessage({ user: ADA, content: 'one' });
    const seen = await client.frame((f) => f.t === 'MESSAGE_CREATE');
    expect(seen).toMatchObject({ s: 3, d: { id: first.id, channel_type: 1 } });
    const before = fake.connectionCount();
    await fake.dropConnections(4000);
    expect((await client.closed()).code).toBe(4000);
    expect(fake.openConnections()).toBe(0);
    const missed = fake.dmMessage({ user: ADA, content: 'two' });
    const again = await gatewayClient('/resume?v=10&encoding=json');
    await again.frame((f) => f.op === 10);
    again.send({ op: 6, d: { token: TOKEN, session_id: ready.session_id, seq: 3 } });
    const resumed = await again.frame((f) => f.t === 'RESUMED');
    expect(again.frames.filter((f) => f.op === 0).map((f) => [f.t, f.s])).toEqual([
      ['MESSAGE_CREATE', 4],
      ['RESUMED', 5],
    ]);
    expect((again.frames[1]?.d as { id: string }).id).toBe(missed.id);
    expect(resumed.s).toBe(5);
    expect(fake.connectionCount()).toBe(before + 1);
    expect(fake.latestReady()).toBe(true);
    again.ws.close(1000);
  });

  it('answers RESUME with op 9 when told to, or for an unknown session', async () => {
    const { client, ready } = await identified();
    fake.invalidateSessions();
    await fake.dropConnections(1006);
    await client.closed();
    const again = await gatewayClient();
    await again.frame((f) => f.op === 10);
    again.send({ op: 6, d: { token: TOKEN, session_id: ready.session_id, seq: 2 } });
    expect(await again.frame((f) => f.op === 9)).toMatchObject({ d: false });
    again.send({ op: 6, d: { token: TOKEN, session_id: '1', seq: 0 } });
    expect((await again.frame((f) => f.op === 9 && f !== again.frames.find((g) => g.op === 9))).d).toBe(false);
    again.ws.close(1000);
  });

  it('builds guild, thread and reply payloads the way Discord sends them', async () => {
    const { client } = await identified();
    const mention = fake.guildMessage({ user: ADA, content: 'hi', mention: true });
    expect(mention).toMatchObject({
      content: `<@${fake.bot.id}> hi`,
      mentions: [{ id: fake.bot.id }],
      guild_id: fake.guildId,
      channel_type: 0,
      member: { roles: [] },
      type: 0,
    });
    const reply = fake.threadMessage({ user: ADA, content: 'ok', replyTo: 'bot' });
    expect(reply).toMatchObject({
      channel_id: fake.threadId,
      channel_type: 11,
      type: 19,
      message_reference: { channel_id: fake.threadId },
      referenced_message: { author: { id: fake.bot.id } },
    });
    await client.frame((f) => f.t === 'MESSAGE_CREATE' && (f.d as { id: string }).id === reply.id);
    client.ws.close(1000);
  });
});

describe('fake discord REST', () => {
  const general = () => fake.textChannelIds[0] ?? '';
  const post = (path: string, body: unknown) => rest(path, { method: 'POST', body: JSON.stringify(body) });

  it('creates messages, threading replies, and records them', async () => {
    const question = fake.guildMessage({ user: ADA, content: 'q' });
    const answer = await post(`/channels/${general()}/messages`, {
      content: 'a',
      message_reference: { message_id: question.id },
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({
      type: 19,
      author: { id: fake.bot.id },
      referenced_message: { id: question.id },
    });
    expect(fake.sent).toEqual([
      expect.objectContaining({
        channel_id: general(),
        content: 'a',
        via: 'channel',
        message_reference: { message_id: question.id },
      }),
    ]);
  });

  it('refuses what Discord refuses, with Discord error codes', async () => {
    const tooLong = await post(`/channels/${general()}/messages`, { content: 'x'.repeat(2001) });
    expect(tooLong.status).toBe(400);
    expect(await tooLong.json()).toEqual({
      code: 50035,
      message: 'Invalid Form Body',
      errors: { content: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 2000 or fewer in length.' }] } },
    });
    expect(await (await post(`/channels/${general()}/messages`, { content: ' ' })).json()).toMatchObject({
      code: 50006,
    });
    expect(await (await post('/channels/1/messages', { content: 'x' })).json()).toMatchObject({ code: 10003 });
    const unknownReference = await post(`/channels/${general()}/messages`, {
      content: 'x',
      message_reference: { message_id: '5' },
    });
    expect(await unknownReference.json()).toMatchObject({ code: 50035, errors: { message_reference: {} } });
    const tolerated = await post(`/channels/${general()}/messages`, {
      content: 'x',
      message_reference: { message_id: '5', fail_if_not_exists: false },
    });
    expect(tolerated.status).toBe(200);
    expect((await rest(`/channels/${general()}/messages`, { method: 'POST', body: '{' })).status).toBe(400);
    expect((await rest(`/channels/${general()}/typing`, { method: 'POST' })).status).toBe(204);
    expect(fake.sent).toHaveLength(1);
  });

  it('answers scripted 429s the way Discord does, then works again', async () => {
    fake.rateLimitNextSends(1, 250);
    const limited = await post(`/channels/${general()}/messages`, { content: 'x' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('0.25');
    expect(await limited.json()).toEqual({ message: 'You are being rate limited.', retry_after: 0.25, global: false });
    expect((await post(`/channels/${general()}/messages`, { content: 'x' })).status).toBe(200);
    expect(fake.calls.map((call) => [call.route, call.status])).toEqual([
      ['createMessage', 429],
      ['createMessage', 200],
    ]);
  });

  it('records bulk command overwrites and refuses invalid names', async () => {
    const path = `/applications/${fake.applicationId}/commands`;
    const ok = await rest(path, { method: 'PUT', body: JSON.stringify([{ name: 'help', description: 'list' }]) });
    expect(ok.status).toBe(200);
    expect(fake.commands()).toEqual([expect.objectContaining({ name: 'help', description: 'list' })]);
    const bad = await rest(path, { method: 'PUT', body: JSON.stringify([{ name: 'Help Me', description: 'x' }]) });
    expect(bad.status).toBe(400);
    expect(fake.commands()?.map((command) => command.name)).toEqual(['help']);
  });

  it('runs the interaction response protocol: ack once, original, followups', async () => {
    const interaction = fake.interaction({ name: 'help', user: ADA });
    const webhook = `/webhooks/${fake.applicationId}/${interaction.token}`;
    const patchOriginal = (content: string) =>
      fetch(`${fake.apiBase}/v10${webhook}/messages/%40original`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ content }),
      });
    expect(await (await patchOriginal('early')).json()).toMatchObject({ code: 10015 });
    expect(await (await post(`/interactions/${interaction.id}/nope/callback`, { type: 5 })).json()).toMatchObject({
      code: 10062,
    });
    expect((await post(`/interactions/${interaction.id}/${interaction.token}/callback`, { type: 5 })).status).toBe(204);
    expect(
      await (await post(`/interactions/${interaction.id}/${interaction.token}/callback`, { type: 5 })).json(),
    ).toMatchObject({
      code: 40060,
    });
    expect((await patchOriginal('answer')).status).toBe(200);
    expect((await patchOriginal('answer, edited')).status).toBe(200);
    expect((await post(webhook, { content: 'more' })).status).toBe(200);
    expect(fake.sent.map((message) => [message.via, message.content])).toEqual([
      ['interaction_original', 'answer, edited'],
      ['interaction_followup', 'more'],
    ]);
    expect(fake.interactions()[0]).toMatchObject({ responseType: 5, followupIds: [fake.sent[1]?.id] });
  });

  it('serves attachment bytes at their URL until told to fail', async () => {
    const message = fake.dmMessage({
      user: ADA,
      content: '',
      attachments: [{ data: 'bytes!', fileName: 'a b.txt', contentType: 'text/plain' }],
    });
    const url = message.attachments[0]?.url ?? '';
    expect(url.startsWith('http://127.0.0.1:')).toBe(true);
    const served = await fetch(url);
    expect(served.headers.get('content-type')).toBe('text/plain');
    expect(await served.text()).toBe('bytes!');
    fake.failNext('attachment', { status: 404 });
    expect((await fetch(url)).status).toBe(404);
  });

  it('frees its port on close()', async () => {
    const other = await startFakeDiscord({ token: TOKEN });
    const client = new WebSocket(`${other.gatewayUrl}/?v=10&encoding=json`);
    await new Promise((resolve) => client.on('open', resolve));
    expect(other.openConnections()).toBe(1);
    await other.close();
    await expect(fetch(`${other.apiBase}/v10/gateway/bot`)).rejects.toThrow();
  });
});

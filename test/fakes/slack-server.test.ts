// The fake Slack, driven by plain HTTP and a plain `ws` client: the Web API's rules, files, Socket
// Mode (hello, envelopes, acks, ping/pong, disconnect, deafness, close handshake), signed requests.
import { verifySlackRequest } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { quietPeriod, waitFor } from '../helpers/wait-for.js';
import { type FakeSlack, startFakeSlack } from './slack-server.js';

let fake: FakeSlack;
beforeEach(async () => {
  fake = await startFakeSlack({ pingIntervalMs: 50 });
});
afterEach(() => fake.close());

type Json = Record<string, unknown>;

async function call(
  method: string,
  params: Record<string, string>,
  token?: string,
): Promise<{ status: number; body: Json; headers: Headers }> {
  const response = await fetch(`${fake.apiUrl}${method}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: new URLSearchParams(params).toString(),
  });
  return { status: response.status, body: (await response.json()) as Json, headers: response.headers };
}

interface Client {
  ws: WebSocket;
  frames: Json[];
  raw: string[];
  pongs: number;
  pings: number;
  closed: Promise<number>;
}

async function connect(): Promise<Client> {
  const { body } = await call('apps.connections.open', {}, fake.appToken);
  const ws = new WebSocket(String(body.url), { autoPong: true });
  const client: Client = {
    ws,
    frames: [],
    raw: [],
    pongs: 0,
    pings: 0,
    closed: new Promise((resolve) => ws.on('close', (code) => resolve(code))),
  };
  ws.on('message', (data) => {
    const text = data.toString();
    client.raw.push(text);
    try {
      client.frames.push(JSON.parse(text) as Json);
    } catch {
      // raw frames stay in `raw`
    }
  });
  ws.on('pong', () => {
    client.pongs += 1;
  });
  ws.on('ping', () => {
    client.pings += 1;
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return client;
}

describe('fake slack: Web API', () => {
  it('answers auth.test for the bot token', async () => {
    const { body } = await call('auth.test', {}, fake.botToken);
    expect(body).toMatchObject({
      ok: true,
      user_id: fake.bot.userId,
      bot_id: fake.bot.botId,
      team_id: fake.bot.teamId,
    });
  });

  it.each([
    ['no token', 'auth.test', undefined, 'not_authed'],
    ['a wrong token', 'auth.test', 'xoxb-wrong', 'invalid_auth'],
    ['the app token on a bot method', 'auth.test', 'APP', 'not_allowed_token_type'],
    ['the bot token on apps.connections.open', 'apps.connections.open', 'BOT', 'not_allowed_token_type'],
  ])('refuses %s', async (_, method, token, error) => {
    const real = token === 'APP' ? fake.appToken : token === 'BOT' ? fake.botToken : token;
    const { status, body } = await call(method, {}, real);
    expect(status).toBe(200);
    expect(body).toEqual({ ok: false, error });
    expect(fake.calls.at(-1)?.error).toBe(error);
  });

  it('records chat.postMessage from a form body (values are strings, mrkdwn read as a flag)', async () => {
    fake.addChannel({ id: 'C1', name: 'general', type: 'channel' });
    const { body } = await call(
      'chat.postMessage',
      { channel: 'C1', text: 'hi', thread_ts: '1.000001', mrkdwn: 'false' },
      fake.botToken,
    );
    expect(body).toMatchObject({
      ok: true,
      channel: 'C1',
      message: { text: 'hi', bot_id: fake.bot.botId, thread_ts: '1.000001' },
    });
    expect(fake.posted).toEqual([
      { channel: 'C1', text: 'hi', thread_ts: '1.000001', mrkdwn: false, ts: body.ts, params: expect.any(Object) },
    ]);
  });

  it('takes JSON bodies too', async () => {
    fake.addChannel({ id: 'C1', name: 'general', type: 'channel' });
    const response = await fetch(`${fake.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', authorization: `Bearer ${fake.botToken}` },
      body: JSON.stringify({ channel: 'C1', text: 'json', mrkdwn: true }),
    });
    expect(((await response.json()) as Json).ok).toBe(true);
    expect(fake.posted[0]).toMatchObject({ text: 'json', mrkdwn: true });
  });

  it('refuses text over 40,000 characters, unknown channels and empty messages', async () => {
    fake.addChannel({ id: 'C1', name: 'general', type: 'channel' });
    expect((await call('chat.postMessage', { channel: 'C1', text: 'x'.repeat(40_000) }, fake.botToken)).body.ok).toBe(
      true,
    );
    expect((await call('chat.postMessage', { channel: 'C1', text: 'x'.repeat(40_001) }, fake.botToken)).body).toEqual({
      ok: false,
      error: 'msg_too_long',
    });
    expect((await call('chat.postMessage', { channel: 'C404', text: 'x' }, fake.botToken)).body.error).toBe(
      'channel_not_found',
    );
    expect((await call('chat.postMessage', { channel: 'C1', text: '' }, fake.botToken)).body.error).toBe('no_text');
    expect(fake.posted).toHaveLength(1);
  });

  it('answers the next N calls with a scripted 429: Retry-After in seconds, ratelimited', async () => {
    fake.addChannel({ id: 'C1', name: 'general', type: 'channel' });
    fake.failNext('chat.postMessage', { rateLimited: 3 }, 2);
    const limited = await call('chat.postMessage', { channel: 'C1', text: 'x' }, fake.botToken);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect(limited.body).toEqual({ ok: false, error: 'ratelimited' });
    expect((await call('chat.postMessage', { channel: 'C1', text: 'x' }, fake.botToken)).status).toBe(429);
    expect((await call('chat.postMessage', { channel: 'C1', text: 'x' }, fake.botToken)).status).toBe(200);
    expect(fake.calls.map((c) => c.status)).toEqual([429, 429, 200]);
    expect(fake.posted).toHaveLength(1);
  });

  it('answers users.info and conversations.info for what it knows', async () => {
    fake.addUser({ id: 'U1', name: 'ada', real_name: 'Ada L' });
    fake.messageEvent({ channel: 'D9', user: 'U2', text: 'x' });
    expect((await call('users.info', { user: 'U1' }, fake.botToken)).body).toMatchObject({
      user: { id: 'U1', name: 'ada', real_name: 'Ada L' },
    });
    expect((await call('users.info', { user: 'U404' }, fake.botToken)).body.error).toBe('user_not_found');
    expect((await call('conversations.info', { channel: 'D9' }, fake.botToken)).body).toMatchObject({
      channel: { id: 'D9', is_im: true, is_member: true },
    });
  });

  it('serves private files only with the bot token, else redirects to the sign-in page', async () => {
    const file = fake.addFile({ name: 'a b.txt', mimetype: 'text/plain', data: 'content' });
    const ok = await fetch(file.url_private_download, { headers: { authorization: `Bearer ${fake.botToken}` } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('content');
    const refused = await fetch(file.url_private, { redirect: 'manual' });
    expect(refused.status).toBe(302);
    expect(refused.headers.get('location')).toMatch(/\/signin\?/);
    expect(fake.downloads).toEqual([
      { fileId: file.id, authorized: true },
      { fileId: file.id, authorized: false },
    ]);
  });
});

describe('fake slack: Socket Mode', () => {
  it('greets with hello, delivers envelopes, records acks, counts connections', async () => {
    const client = await connect();
    await waitFor(() => client.frames.length === 1);
    expect(client.frames[0]).toMatchObject({
      type: 'hello',
      num_connections: 1,
      debug_info: { host: expect.any(String) },
      connection_info: { app_id: fake.bot.appId },
    });
    const { message } = fake.pushMessage({ channel: 'D1', user: 'U1', text: 'hi' });
    await waitFor(() => client.frames.length === 2);
    expect(client.frames[1]).toEqual(message);
    expect(message).toMatchObject({
      type: 'events_api',
      accepts_response_payload: false,
      retry_attempt: 0,
      retry_reason: '',
      payload: { type: 'event_callback', event_id: expect.any(String), event: { type: 'message', channel_type: 'im' } },
    });
    client.ws.send(JSON.stringify({ envelope_id: message.envelope_id, payload: {} }));
    expect((await fake.waitForAck(message.envelope_id)).payload).toEqual({});
    expect([fake.connectionCount(), fake.openConnections()]).toEqual([1, 1]);
  });

  it('sends the app_mention of a channel message that mentions the bot, and redelivers with retry_attempt', async () => {
    const client = await connect();
    const { message, mention } = fake.pushMessage({ channel: 'C1', user: 'U1', text: `<@${fake.bot.userId}> hi` });
    expect(mention?.payload.event).toMatchObject({ type: 'app_mention', ts: message.payload.event.ts });
    const again = fake.redeliver(message);
    expect(again).toMatchObject({
      retry_attempt: 1,
      retry_reason: 'timeout',
      payload: { event_id: message.payload.event_id },
    });
    expect(again.envelope_id).not.toBe(message.envelope_id);
    await waitFor(() => client.frames.length === 4);
  });

  it('holds events while no socket is live and delivers them to the next one', async () => {
    fake.pushMessage({ channel: 'D1', user: 'U1', text: 'early' });
    expect(fake.queued()).toHaveLength(1);
    const client = await connect();
    await waitFor(() => client.frames.length === 2);
    expect(fake.queued()).toHaveLength(0);
  });

  it('answers pings with pongs, and pings on its own', async () => {
    const client = await connect();
    client.ws.ping();
    await waitFor(() => client.pongs === 1);
    await waitFor(() => client.pings >= 1);
  });

  it('accepts each connection ticket once', async () => {
    const { body } = await call('apps.connections.open', {}, fake.appToken);
    const first = new WebSocket(String(body.url));
    await new Promise((resolve) => first.once('open', resolve));
    const second = new WebSocket(String(body.url));
    second.on('error', () => {}); // terminate() below ends the refused attempt
    const refused = await new Promise<string>((resolve) =>
      second.once('unexpected-response', (_, res) => resolve(String(res.statusCode))),
    );
    expect(refused).toBe('401');
    second.terminate();
    first.close();
  });

  it('sends a disconnect envelope', async () => {
    const client = await connect();
    fake.disconnect('refresh_requested');
    await waitFor(() => client.frames.length === 2);
    expect(client.frames[1]).toMatchObject({ type: 'disconnect', reason: 'refresh_requested' });
  });

  it('goes deaf on silence(): no pong, no ping, no event, no close handshake — but sees the TCP close', async () => {
    const client = await connect();
    await waitFor(() => client.frames.length === 1);
    fake.silence();
    const pings = client.pings;
    client.ws.ping();
    fake.pushMessage({ channel: 'D1', user: 'U1', text: 'lost' });
    // nothing may come back: no marker can show that a pong or an event will never come
    await quietPeriod(150, 'a pong, a ping or the event would arrive now');
    expect([client.pongs, client.pings - pings, client.frames.length]).toEqual([0, 0, 1]);
    expect(fake.queued()).toHaveLength(1);
    client.ws.close(1000);
    await quietPeriod(100, 'the close handshake is never answered');
    expect(client.ws.readyState).toBe(WebSocket.CLOSING);
    client.ws.terminate();
    await waitFor(() => fake.openConnections() === 0);
    expect(fake.closes).toEqual([{ connection: 1, code: 1006 }]);
    expect(fake.maxOpenConnections()).toBe(1);
  });

  it('closes its sockets with a close handshake', async () => {
    const client = await connect();
    await fake.closeSockets(1001);
    expect(await client.closed).toBe(1001);
    expect(fake.openConnections()).toBe(0);
  });
});

describe('fake slack: signed HTTP events', () => {
  it('signs as Slack does, so Bolt verifies it; retries carry x-slack-retry-*', () => {
    const body = fake.eventCallback(fake.messageEvent({ channel: 'D1', user: 'U1', text: 'x' }));
    const request = fake.signedRequest(body, { retryNum: 2, retryReason: 'http_error' });
    expect(() =>
      verifySlackRequest({
        signingSecret: fake.signingSecret,
        body: request.rawBody,
        headers: {
          'x-slack-signature': request.headers['x-slack-signature'] ?? '',
          'x-slack-request-timestamp': Number(request.headers['x-slack-request-timestamp']),
        },
      }),
    ).not.toThrow();
    expect(request.headers).toMatchObject({ 'x-slack-retry-num': '2', 'x-slack-retry-reason': 'http_error' });
    expect(JSON.parse(request.rawBody)).toEqual(body);
  });
});

// The gateway connection through real discord.js: ready, intents, one reconnect owner (resume), login failures, stop.
import type { PlatformAdapter, PlatformConnection } from '@hermes/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADA, eventually, type Harness, nextEvent, pause, recordingSink, startHarness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const running: PlatformAdapter[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((adapter) => adapter.stop()));
  h.fake.reset();
});

function started(options: Parameters<Harness['adapter']>[0] = {}): PlatformAdapter {
  const adapter = h.adapter(options);
  running.push(adapter);
  return adapter;
}

const identifies = () => h.fake.ops.filter((op) => op.op === 2);
const resumes = () => h.fake.ops.filter((op) => op.op === 6);

describe('discord connection', () => {
  it('identifies with the intents it needs and reports connected once ready', async () => {
    const adapter = started();
    expect(adapter.status().state).toBe('disconnected');
    const before = h.fake.connectionCount();
    await adapter.start(recordingSink().sink);
    expect(adapter.status().state).toBe('connected');
    expect(h.fake.connectionCount()).toBe(before + 1);
    const intents = identifies().at(-1)?.d as { intents: number };
    // GUILDS, GUILD_MESSAGES, DIRECT_MESSAGES, MESSAGE_CONTENT
    expect(intents.intents).toBe((1 << 0) | (1 << 9) | (1 << 12) | (1 << 15));
  });

  it('resumes after the gateway drops the socket: one new connection, missed messages replayed', async () => {
    const adapter = started();
    const recorder = recordingSink();
    await adapter.start(recorder.sink);
    const before = h.fake.connectionCount();
    const identified = identifies().length;
    const states: PlatformConnection[] = [];
    const watch = setInterval(() => states.push(adapter.status().state), 5);
    await h.fake.dropConnections(4000);
    const missed = h.fake.dmMessage({ user: ADA, content: 'sent while away' });
    await h.fake.until(() => h.fake.latestReady(), 5_000, 'resumed connection');
    await eventually(() => adapter.status().state === 'connected');
    clearInterval(watch);
    expect(h.fake.connectionCount()).toBe(before + 1);
    expect(h.fake.openConnections()).toBe(1);
    expect(h.fake.connectionPaths().at(-1)).toMatch(/^\/resume\?v=10&encoding=json$/);
    expect(resumes()).toHaveLength(1);
    expect(identifies()).toHaveLength(identified);
    expect(states).toContain('disconnected');
    expect((await nextEvent(recorder.events)).messageId).toBe(missed.id);
    const after = h.fake.dmMessage({ user: ADA, content: 'after the resume' });
    expect((await nextEvent(recorder.events)).messageId).toBe(after.id);
    expect(recorder.events).toEqual([]);
  });

  it('resumes after an abnormal close (1006) the same way', async () => {
    const adapter = started();
    const recorder = recordingSink();
    await adapter.start(recorder.sink);
    const before = h.fake.connectionCount();
    await h.fake.dropConnections(1006);
    await h.fake.until(() => h.fake.latestReady(), 5_000, 'resumed connection');
    h.fake.dmMessage({ user: ADA, content: 'hello again' });
    expect((await nextEvent(recorder.events)).text).toBe('hello again');
    expect(h.fake.connectionCount()).toBe(before + 1);
    expect(resumes()).toHaveLength(1);
  });

  it('reports error and does not retry when the token is refused (401 on /gateway/bot)', async () => {
    h.fake.failNext('gatewayBot', { status: 401 });
    let sleeps = 0;
    const adapter = started({
      deps: {
        sleep: async () => {
          sleeps += 1;
        },
      },
    });
    const before = h.fake.connectionCount();
    await adapter.start(recordingSink().sink);
    await eventually(() => /login refused/.test(adapter.status().error ?? ''));
    expect(adapter.status().state).toBe('error');
    expect(adapter.status().error).toMatch(/TokenInvalid/);
    expect(sleeps).toBe(0);
    expect(h.fake.calls.filter((call) => call.route === 'gatewayBot')).toHaveLength(1);
    expect(h.fake.connectionCount()).toBe(before);
  });

  it.each([
    [4004, /4004 AuthenticationFailed/, 600],
    [4014, /4014 DisallowedIntents/, 0],
  ])('reports error and does not reconnect when the gateway closes with %i', async (code, reason, waitMs) => {
    h.fake.refuseNextIdentify(code);
    let sleeps = 0;
    const adapter = started({
      deps: {
        sleep: async () => {
          sleeps += 1;
        },
      },
    });
    const before = h.fake.connectionCount();
    await adapter.start(recordingSink().sink);
    await eventually(() => /login refused/.test(adapter.status().error ?? ''));
    expect(adapter.status().state).toBe('error');
    expect(h.lines.some((line) => reason.test(JSON.stringify(line)))).toBe(true);
    // discord.js would reconnect 500 ms after a recoverable close: only time can show it does not
    await pause(waitMs);
    expect(h.fake.connectionCount()).toBe(before + 1);
    expect(h.fake.openConnections()).toBe(0);
    expect(sleeps).toBe(0);
  });

  it('retries the first login with backoff while /gateway/bot fails, then connects', async () => {
    h.fake.failNext('gatewayBot', { status: 502 });
    h.fake.failNext('gatewayBot', { network: true });
    const delays: number[] = [];
    const adapter = started({
      deps: {
        sleep: async (ms) => {
          delays.push(ms);
        },
        random: () => 0,
      },
    });
    await adapter.start(recordingSink().sink);
    await eventually(() => adapter.status().state === 'connected');
    expect(delays).toEqual([500, 1_000]);
    expect(h.fake.calls.filter((call) => call.route === 'gatewayBot').map((call) => call.status)).toEqual([
      502, 0, 200,
    ]);
  });

  it('stop() closes the socket, reports stopped and delivers nothing afterwards', async () => {
    const adapter = started();
    const recorder = recordingSink();
    await adapter.start(recorder.sink);
    expect(h.fake.openConnections()).toBe(1);
    await adapter.stop();
    expect(adapter.status().state).toBe('stopped');
    expect(h.fake.openConnections()).toBe(0);
    h.fake.dmMessage({ user: ADA, content: 'too late' });
    await pause(50); // no socket is open: only time can show nothing arrives by another way
    expect(recorder.attempts).toEqual([]);
  });

  it('never writes the token to the logs', async () => {
    h.lines.length = 0;
    h.fake.failNext('gatewayBot', { status: 500 });
    const adapter = started();
    const recorder = recordingSink();
    await adapter.start(recorder.sink);
    await eventually(() => adapter.status().state === 'connected');
    h.fake.failNext('createMessage', { status: 401 });
    await adapter.send({ chatId: h.fake.textChannelIds[0] ?? '', text: 'x', formatted: true });
    h.fake.failNext('interactionCallback', { network: true });
    const interaction = h.fake.interaction({ name: 'help' });
    const event = await nextEvent(recorder.events);
    await adapter.send({ chatId: event.source.chatId, text: 'x', formatted: true, replyToMessageId: interaction.id });
    const text = JSON.stringify(h.lines);
    expect(text).toMatch(/interaction not acknowledged/);
    expect(h.lines.length).toBeGreaterThan(0);
    expect(text).not.toContain('TEST-discord-token');
    expect(text).not.toContain('fake-interaction-token');
  });
});

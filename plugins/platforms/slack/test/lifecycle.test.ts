// Start and stop: refused tokens, retried connects, stop() closing the socket (deaf or not), restarts.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually, type Harness, pause, recordingSink, startHarness } from './harness.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(() => h.close());

describe('slack adapter lifecycle', () => {
  it('reports an error and stops trying when auth.test refuses the bot token', async () => {
    h.fake.failNext('auth.test', { error: 'invalid_auth' });
    const adapter = h.adapter();
    await adapter.start(recordingSink().sink);
    expect(adapter.status()).toMatchObject({
      state: 'error',
      error: 'auth.test refused SLACK_BOT_TOKEN (invalid_auth)',
    });
    await pause(50);
    expect(h.fake.calls.map((call) => call.method)).toEqual(['auth.test']);
  });

  it('reports an error and stops trying when apps.connections.open refuses the app token', async () => {
    h.fake.failNext('apps.connections.open', { error: 'invalid_auth' });
    const adapter = h.adapter();
    await adapter.start(recordingSink().sink);
    await eventually(() => adapter.status().state === 'error');
    await pause(50);
    expect(adapter.status().error).toBe('apps.connections.open refused the app token: invalid_auth');
    expect(h.fake.calls.filter((call) => call.method === 'apps.connections.open')).toHaveLength(1);
    expect(h.fake.connectionCount()).toBe(0);
  });

  it('retries a failing connect with backoff until it is connected', async () => {
    h.fake.failNext('auth.test', { status: 500 });
    h.fake.failNext('apps.connections.open', { status: 503 });
    h.fake.failNext('apps.connections.open', { network: true });
    const sleeps: number[] = [];
    const adapter = h.adapter({ deps: { sleep: async (ms) => void sleeps.push(ms), random: () => 0 } });
    await adapter.start(recordingSink().sink);
    await eventually(() => adapter.status().state === 'connected');
    expect(sleeps).toEqual([500, 500, 1_000]);
    expect(h.fake.connectionCount()).toBe(1);
  });

  it('closes a socket whose hello never comes (after the liveness bound) and connects again, one socket at a time', async () => {
    h.fake.withholdHello(1);
    const adapter = h.adapter();
    const started = Date.now();
    await adapter.start(recordingSink().sink);
    await eventually(() => adapter.status().state === 'connected');
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    expect(h.fake.connectionCount()).toBe(2);
    expect(h.fake.maxOpenConnections()).toBe(1);
    expect(h.lines.some((line) => (line.obj as { error?: string } | null)?.error === 'no hello within 400 ms')).toBe(
      true,
    );
  });

  it('stop() closes the socket with a handshake and delivers nothing afterwards', async () => {
    const recorder = recordingSink();
    const adapter = h.adapter();
    await adapter.start(recorder.sink);
    await adapter.stop();
    expect(adapter.status().state).toBe('stopped');
    await eventually(() => h.fake.openConnections() === 0);
    expect(h.fake.closes).toEqual([{ connection: 1, code: 1000 }]);
    h.fake.pushMessage({ channel: 'D1', user: 'U1', text: 'too late' });
    await pause(50);
    expect(recorder.attempts).toHaveLength(0);
    expect(h.fake.queued()).toHaveLength(1);
  });

  it('stop() terminates a deaf socket without waiting for its handshake', async () => {
    const adapter = h.adapter({ settings: { liveness_timeout_ms: 60_000 } });
    await adapter.start(recordingSink().sink);
    h.fake.silence();
    const started = Date.now();
    await adapter.stop();
    expect(Date.now() - started).toBeLessThan(2_500);
    await eventually(() => h.fake.openConnections() === 0);
    expect(h.fake.closes).toEqual([{ connection: 1, code: 1006 }]);
  });

  it('a new adapter after stop() (a restart) opens exactly one new socket', async () => {
    const first = h.adapter();
    await first.start(recordingSink().sink);
    await first.stop();
    const recorder = recordingSink();
    const second = h.adapter();
    await second.start(recorder.sink);
    expect(second.status().state).toBe('connected');
    expect(h.fake.connectionCount()).toBe(2);
    expect(h.fake.openConnections()).toBe(1);
    expect(h.fake.maxOpenConnections()).toBe(1);
    h.fake.pushMessage({ channel: 'D1', user: 'U1', text: 'after restart' });
    await eventually(() => recorder.events.length === 1);
  });
});

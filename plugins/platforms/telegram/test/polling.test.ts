// Long polling against the fake Bot API with the real grammy client: at-least-once intake, offsets, backoff.

import { DEFAULT_BACKOFF } from '@hermes/plugin-sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OFFSET_KEY } from '../polling.js';
import { eventually, type Harness, memoryState, pause, recordingSink, startHarness } from './harness.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(() => h.close());

describe('telegram polling', () => {
  it('delivers a DM as an event and persists the offset only after the sink accepted it', async () => {
    const state = memoryState();
    const recorder = recordingSink(state);
    const offsetsSeenDuringAccept: (string | undefined)[] = [];
    recorder.onAccept(() => offsetsSeenDuringAccept.push(state.get(OFFSET_KEY)));
    const adapter = h.adapter({ state });
    await adapter.start(recorder.sink);
    expect(adapter.status().state).toBe('connected');

    const update = h.fake.pushMessage({ chatId: 42, userId: 42, username: 'ada', text: 'hello bot' });
    await eventually(() => state.get(OFFSET_KEY) === String(update.update_id + 1));

    expect(offsetsSeenDuringAccept).toEqual([undefined]);
    // the offset travels with the event, for the gateway to store in the accepting transaction
    expect(recorder.options).toEqual([{ state: { [OFFSET_KEY]: String(update.update_id + 1) } }]);
    expect(recorder.events).toHaveLength(1);
    expect(recorder.events[0]).toMatchObject({
      kind: 'text',
      platform: 'telegram',
      text: 'hello bot',
      messageId: `42:${update.message?.message_id}`,
      internal: false,
      source: { platform: 'telegram', chatId: '42', chatType: 'dm', userId: '42', userName: 'ada', mentioned: false },
    });
    expect(recorder.events[0]?.raw).toEqual(update);
    const methods = h.fake.calls.map((call) => call.method);
    expect(methods.slice(0, 3)).toEqual(['getMe', 'deleteWebhook', 'getUpdates']);
  });

  it('does not advance the offset when accept throws, and delivers the update again', async () => {
    const state = memoryState();
    const recorder = recordingSink(state);
    recorder.failNext(1);
    const sleeps: number[] = [];
    const adapter = h.adapter({ state, deps: { sleep: async (ms) => void sleeps.push(ms), random: () => 0 } });
    await adapter.start(recorder.sink);

    const update = h.fake.pushMessage({ chatId: 42, userId: 42, text: 'important' });
    await eventually(() => recorder.events.length === 1);
    expect(recorder.attempts.map((event) => event.messageId)).toEqual([
      recorder.events[0]?.messageId,
      recorder.events[0]?.messageId,
    ]);
    await eventually(() => state.get(OFFSET_KEY) === String(update.update_id + 1));
    expect(sleeps).toEqual([DEFAULT_BACKOFF.baseMs / 2]);
    expect(h.lines.some((line) => line.level === 'error' && /not accepted/.test(line.msg ?? ''))).toBe(true);
    // the refetch asked again from the first offset, so the update came back
    const offsets = h.fake.calls.filter((call) => call.method === 'getUpdates').map((call) => call.body.offset);
    expect(offsets.slice(0, 2)).toEqual([undefined, undefined]);
  });

  it('restarts from the persisted offset without repeating or skipping updates', async () => {
    const state = memoryState();
    const first = recordingSink();
    const one = h.adapter({ state });
    await one.start(first.sink);
    const a = h.fake.pushMessage({ chatId: 42, userId: 42, text: 'A' });
    await eventually(() => state.get(OFFSET_KEY) === String(a.update_id + 1));
    await one.stop();
    expect(one.status().state).toBe('stopped');

    // as after a crash: the server never saw A confirmed and still holds it; B arrives while we are down
    if (!h.fake.queued().some((update) => update.update_id === a.update_id)) h.fake.pushUpdate(a);
    h.fake.pushMessage({ chatId: 42, userId: 42, text: 'B' });
    const second = recordingSink();
    const two = h.adapter({ state });
    await two.start(second.sink);
    h.fake.pushMessage({ chatId: 42, userId: 42, text: 'C' });
    await eventually(() => second.events.length === 2);
    expect(first.events.map((event) => event.text)).toEqual(['A']);
    expect(second.events.map((event) => event.text)).toEqual(['B', 'C']);
    const restartPoll = h.fake.calls.filter((call) => call.method === 'getUpdates').find((call) => call.body.offset);
    expect(restartPoll?.body.offset).toBe(a.update_id + 1);
  });

  it('retries a 409 conflict with backoff; the status goes error, then connected', async () => {
    h.fake.failNext('getUpdates', { status: 409 });
    h.fake.failNext('getUpdates', { status: 409 });
    const sleeps: { ms: number; state: string; error: string | undefined }[] = [];
    const recorder = recordingSink();
    const adapter = h.adapter({
      deps: {
        random: () => 1,
        sleep: async (ms) => {
          const status = adapter.status();
          sleeps.push({ ms, state: status.state, error: status.error });
        },
      },
    });
    await adapter.start(recorder.sink);
    h.fake.pushMessage({ chatId: 42, userId: 42, text: 'after the conflict' });
    await eventually(() => recorder.events.length === 1);

    expect(sleeps.map((sleep) => sleep.ms)).toEqual([1000, 2000]);
    expect(sleeps.every((sleep) => sleep.state === 'error')).toBe(true);
    expect(sleeps[0]?.error).toMatch(/^409: Conflict/);
    expect(adapter.status().state).toBe('connected');
    // logged once per change of state, not once per failure
    const changes = h.lines.filter((line) => /telegram: (connected|connecting|connection error)/.test(line.msg ?? ''));
    expect(changes.map((line) => line.level)).toEqual(['info', 'info', 'warn', 'info']);
  });

  it('waits out a 429 on getUpdates for retry_after seconds', async () => {
    h.fake.failNext('getUpdates', { status: 429, retryAfter: 3 });
    const sleeps: number[] = [];
    const recorder = recordingSink();
    const adapter = h.adapter({ deps: { sleep: async (ms) => void sleeps.push(ms) } });
    await adapter.start(recorder.sink);
    h.fake.pushMessage({ chatId: 1, userId: 1, text: 'x' });
    await eventually(() => recorder.events.length === 1);
    expect(sleeps).toEqual([3000]);
  });

  it('retries network errors and server errors, and a failing getMe at start', async () => {
    h.fake.failNext('getMe', { network: true });
    h.fake.failNext('getUpdates', { status: 502 });
    h.fake.failNext('getUpdates', { network: true });
    const recorder = recordingSink();
    const adapter = h.adapter();
    await adapter.start(recorder.sink);
    h.fake.pushMessage({ chatId: 1, userId: 1, text: 'still here' });
    await eventually(() => recorder.events.length === 1);
    expect(adapter.status().state).toBe('connected');
    const logged = JSON.stringify(h.lines);
    expect(logged).not.toContain('TEST-token');
  });

  it('stop() aborts the held getUpdates at once and delivers nothing afterwards', async () => {
    await h.close();
    h = await startHarness({ longPollCapMs: 10_000 });
    const recorder = recordingSink();
    const adapter = h.adapter({ settings: { poll_timeout_s: 25 } });
    await adapter.start(recorder.sink);
    await h.fake.waitForCall('getUpdates');
    await eventually(() => h.fake.pendingPolls() === 1);
    const started = Date.now();
    await adapter.stop();
    expect(Date.now() - started).toBeLessThan(1000);
    await eventually(() => h.fake.pendingPolls() === 0);
    h.fake.pushMessage({ chatId: 1, userId: 1, text: 'too late' });
    await pause(50); // no poll is held: only time can show that none starts again
    expect(recorder.events).toHaveLength(0);
    expect(adapter.status().state).toBe('stopped');
  });

  it('can be started again after stop', async () => {
    const recorder = recordingSink();
    const adapter = h.adapter();
    await adapter.start(recorder.sink);
    await adapter.stop();
    await adapter.start(recorder.sink);
    h.fake.pushMessage({ chatId: 1, userId: 1, text: 'again' });
    await eventually(() => recorder.events.length === 1);
  });
});

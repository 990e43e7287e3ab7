// Catch-up at start: what users wrote while the gateway was down is fetched through REST from each
// channel's last accepted message, and handed over once, in order, by the live path's rules.
import type { InboundSink, MessageEvent, PlatformAdapter, PlatformContext } from '@hermes/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS_KEY, createCatchUpCursors, cursorKey, MAX_CHANNELS } from '../catch-up-cursors.js';
import { ADA, BOB, eventually, type Harness, memoryState, startHarness } from './harness.js';

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

/** A sink that stores the platform state given with an accept, as the gateway's inbox does (same transaction). */
function storingSink(state: PlatformContext['state']): { sink: InboundSink; events: MessageEvent[] } {
  const events: MessageEvent[] = [];
  return {
    events,
    sink: {
      async accept(event, options) {
        events.push(event);
        for (const [key, value] of Object.entries(options?.state ?? {})) state.set(key, value);
      },
    },
  };
}

async function startAdapter(
  state: PlatformContext['state'],
  options: Parameters<Harness['adapter']>[0] = {},
): Promise<{ adapter: PlatformAdapter; events: MessageEvent[] }> {
  const adapter = h.adapter({ ...options, state });
  running.push(adapter);
  const { sink, events } = storingSink(state);
  await adapter.start(sink);
  return { adapter, events };
}

const texts = (events: MessageEvent[]) => events.map((e) => e.text);
const listCalls = () => h.fake.calls.filter((c) => c.route === 'listMessages');

describe('discord catch-up after a restart', () => {
  it('hands over, once and in order, what was written while the gateway was down, with the facts the live path gives', async () => {
    const state = memoryState();
    const first = await startAdapter(state);
    h.fake.dmMessage({ user: ADA, content: 'before' });
    h.fake.guildMessage({ user: BOB, content: 'group before', mention: true });
    await eventually(() => first.events.length === 2);
    expect(state.get(CHANNELS_KEY)).toBeDefined();
    await first.adapter.stop();

    // the gateway is down: Discord keeps these for no new session
    h.fake.dmMessage({ user: ADA, content: 'while down 1' });
    h.fake.guildMessage({ user: BOB, content: 'chatter, not for the bot' });
    h.fake.dmMessage({ user: ADA, content: 'while down 2' });
    h.fake.guildMessage({ user: BOB, content: 'while down, mentioned', mention: true });

    const second = await startAdapter(state);
    await eventually(() => second.events.length === 4);
    const dm = second.events.filter((e) => e.source.chatType === 'dm');
    expect(texts(dm)).toEqual(['while down 1', 'while down 2']);
    // group messages go to the gateway with the facts the live path gives it (it decides to stay silent)
    const group = second.events.filter((e) => e.source.chatType !== 'dm');
    expect(group.map((e) => [e.text, e.source.mentioned === true])).toEqual([
      ['chatter, not for the bot', false],
      ['while down, mentioned', true],
    ]);
    expect(group[0]?.source.chatId).toBe(h.fake.textChannelIds[0]);
    expect(listCalls()).toHaveLength(2);

    // live messages go on as before, and nothing is handed over twice
    h.fake.dmMessage({ user: ADA, content: 'live again' });
    h.fake.dmMessage({ user: ADA, content: 'marker' }); // anything handed over twice comes before it
    await eventually(() => texts(second.events).includes('marker'));
    expect(texts(second.events).slice(-2)).toEqual(['live again', 'marker']);
    expect(second.events).toHaveLength(6);
  });

  it('reads the cursors when it starts, not when it was built (a cluster standby taking Discord over)', async () => {
    const state = memoryState();
    // the standby instance builds its adapter at its own start, while another instance holds Discord
    const standby = h.adapter({ state });
    running.push(standby);
    const holder = await startAdapter(state);
    h.fake.dmMessage({ user: ADA, content: 'to the holder' });
    await eventually(() => holder.events.length === 1);
    await holder.adapter.stop();
    // no instance holds Discord: nothing is dispatched to anyone
    h.fake.dmMessage({ user: ADA, content: 'in the gap' });

    const { sink, events } = storingSink(state);
    await standby.start(sink);
    await eventually(() => events.length === 1);
    expect(texts(events)).toEqual(['in the gap']);
  });

  it('skips messages older than catch_up_hours, and reads nothing with catch_up_hours: 0', async () => {
    const state = memoryState();
    const first = await startAdapter(state);
    h.fake.dmMessage({ user: ADA, content: 'seed' });
    await eventually(() => first.events.length === 1);
    await first.adapter.stop();
    h.fake.dmMessage({ user: ADA, content: 'written while down' });

    // two hours later, with a one-hour window: too old
    const later = Date.now() + 2 * 3_600_000;
    const logged = h.lines.length;
    const late = await startAdapter(state, { settings: { catch_up_hours: 1 }, deps: { now: () => later } });
    await eventually(() => h.lines.slice(logged).some((line) => line.msg?.includes('discord: caught up') === true));
    expect(h.lines.slice(logged).find((line) => line.msg?.includes('caught up'))?.obj).toMatchObject({ messages: 0 });
    expect(late.events).toEqual([]);
    await late.adapter.stop();

    h.fake.reset();
    const off = await startAdapter(state, { settings: { catch_up_hours: 0 } });
    h.fake.dmMessage({ user: ADA, content: 'live' }); // once it is here, a catch-up would have begun
    await eventually(() => off.events.length > 0);
    expect(off.adapter.status().state).toBe('connected');
    expect(listCalls()).toEqual([]);
    expect(texts(off.events)).toEqual(['live']);
  });

  it('a channel the bot can no longer read is forgotten', async () => {
    const state = memoryState();
    state.set(CHANNELS_KEY, JSON.stringify(['999999999999999999']));
    state.set(cursorKey('999999999999999999'), '1000000000000000000');
    await startAdapter(state);
    await eventually(() => listCalls().length === 1);
    await eventually(() => state.get(CHANNELS_KEY) === '[]');
    expect(state.values.has(cursorKey('999999999999999999'))).toBe(false);
  });
});

describe('catch-up cursors', () => {
  it('keep the newest message per channel, written only when newer, the list only when a channel is new', () => {
    const state = memoryState();
    const cursors = createCatchUpCursors(state);
    expect(cursors.stateWith('10', '500', undefined)).toEqual({ [cursorKey('10')]: '500', [CHANNELS_KEY]: '["10"]' });
    cursors.advance('10', '500', undefined);
    expect(cursors.stateWith('10', '600', '77')).toEqual({ [cursorKey('10')]: '600:77' });
    expect(cursors.stateWith('10', '499', undefined)).toEqual({});
    // 64-bit ids compare as numbers, not as strings
    expect(cursors.stateWith('10', '1000', undefined)).toEqual({ [cursorKey('10')]: '1000' });
  });

  it('a list written by a later accept holds every channel of earlier ones, whatever order they commit in', () => {
    const cursors = createCatchUpCursors(memoryState());
    const a = cursors.stateWith('1', '100', undefined);
    const b = cursors.stateWith('2', '200', undefined);
    expect(JSON.parse(b[CHANNELS_KEY] ?? '[]')).toEqual(['1', '2']);
    expect(JSON.parse(a[CHANNELS_KEY] ?? '[]')).toEqual(['1']);
  });

  it('read back after a restart, damaged values ignored, at most MAX_CHANNELS kept (the least active leave)', () => {
    const state = memoryState({ [CHANNELS_KEY]: 'not json' });
    const cursors = createCatchUpCursors(state);
    for (let i = 1; i <= MAX_CHANNELS + 5; i++) {
      const written = cursors.stateWith(String(i), String(1000 + i), undefined);
      for (const [key, value] of Object.entries(written)) state.set(key, value);
      cursors.advance(String(i), String(1000 + i), undefined);
    }
    state.set(cursorKey('3'), 'garbage');
    const again = createCatchUpCursors(state).list();
    expect(again.length).toBeLessThanOrEqual(MAX_CHANNELS);
    expect(again[0]).toEqual([String(MAX_CHANNELS + 5), { lastId: String(1000 + MAX_CHANNELS + 5) }]);
    expect(again.some(([id]) => id === '1')).toBe(false);
    expect(again.some(([id]) => id === '3')).toBe(false);
  });

  it('delete the cursor key of a channel that leaves the list (the stored state stays at MAX_CHANNELS channels)', () => {
    const state = memoryState();
    const cursors = createCatchUpCursors(state);
    for (let i = 1; i <= MAX_CHANNELS + 1; i++) {
      for (const [key, value] of Object.entries(cursors.stateWith(String(i), String(1000 + i), undefined))) {
        state.set(key, value);
      }
      cursors.advance(String(i), String(1000 + i), undefined);
    }
    expect(state.values.has(cursorKey('1'))).toBe(false);
    expect(state.get(cursorKey('2'))).toBe('1002');
    expect(state.get(cursorKey(String(MAX_CHANNELS + 1)))).toBe(String(1000 + MAX_CHANNELS + 1));
    expect([...state.values.keys()].filter((key) => key.startsWith('catch_up:'))).toHaveLength(MAX_CHANNELS);
    expect(JSON.parse(state.get(CHANNELS_KEY) ?? '[]')).toHaveLength(MAX_CHANNELS);
  });
});

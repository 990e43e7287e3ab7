// What a user sees while a turn runs: with streaming, the typing indicator stops once text shows
// and comes back while tools run; reactions go 👀 then ✅ / ❌ in order, and a failing reaction
// changes nothing else.
import type { MessageEvent, OutboundMessage, PlatformAdapter, Reaction } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { quietPeriod, waitFor } from '../../../test/helpers/wait-for.js';
import { EditCadence } from '../src/delivery/live-stream.js';
import { DISPLAY_DEFAULTS, TurnDisplay, TYPING_DELAY_MS } from '../src/turn/turn-display.js';

const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, fatal() {}, child: () => silent };
const tick = (ms = 10) => new Promise((r) => setTimeout(r, ms));

const event = {
  kind: 'text',
  platform: 'memory',
  messageId: 'c1:7',
  text: 'hi',
  source: { chatId: 'c1', userId: 'u1', chatType: 'dm' },
} as unknown as MessageEvent;

function memory(react?: (reaction: Reaction) => Promise<void>) {
  const typing: number[] = [];
  const reactions: Reaction[] = [];
  const sent: OutboundMessage[] = [];
  const adapter: PlatformAdapter = {
    name: 'memory',
    capabilities: {
      maxMessageLength: 500,
      formatting: 'plain',
      editing: true,
      typing: true,
      threads: false,
      reactions: true,
    },
    start: async () => {},
    stop: async () => {},
    send: async (message) => {
      sent.push(message);
      return { ok: true, messageIds: ['m1'] };
    },
    edit: async () => ({ ok: true, messageIds: ['m1'] }),
    react: async (reaction) => {
      await react?.(reaction);
      reactions.push(reaction);
      return { ok: true, messageIds: [] };
    },
    sendTyping: async () => void typing.push(Date.now()),
    format: (text) => text,
    status: () => ({ state: 'connected', since: 0 }),
  };
  return { adapter, typing, reactions, sent };
}

const options = (adapter: PlatformAdapter, display = DISPLAY_DEFAULTS) => ({
  adapter,
  event,
  display,
  existingIds: [],
  cadence: new EditCadence(),
  remember: async () => {},
  redact: (t: string) => t,
  logger: silent,
  now: Date.now,
});

describe('TurnDisplay', () => {
  it('streaming: text stops the typing indicator; a tool step starts it again at once', async () => {
    const m = memory();
    const display = new TurnDisplay(options(m.adapter, { ...DISPLAY_DEFAULTS, streaming: true }));
    display.start();
    display.onDelta('Hello');
    await quietPeriod(TYPING_DELAY_MS + 100, 'past the typing delay: no typing, the text shows');
    expect(m.typing).toHaveLength(0);
    display.tools(['terminal']);
    await waitFor(() => m.typing.length > 0, { what: 'the typing indicator' });
    expect(m.typing).toHaveLength(1);
    // the stream's message carries a key from the user's message: a redo after a kill posts it once (Discord)
    expect(m.sent.map((s) => s.idempotencyKey)).toEqual(['s0.7']);
    await display.finish();
    display.close();
  });

  it('reactions: 👀, then ✅ replacing it, in that order even when the first is slow', async () => {
    const m = memory(async (reaction) => {
      if (reaction.emoji === '👀') await tick(50);
    });
    const display = new TurnDisplay(options(m.adapter, { ...DISPLAY_DEFAULTS, reactions: true }));
    display.start();
    await display.settled(true);
    display.close();
    expect(m.reactions.map((r) => [r.emoji, r.replaces, r.messageId])).toEqual([
      ['👀', undefined, 'c1:7'],
      ['✅', '👀', 'c1:7'],
    ]);
  });

  it('a reaction that throws is logged, and ❌ still follows', async () => {
    const m = memory(async (reaction) => {
      if (reaction.emoji === '👀') throw new Error('boom');
    });
    const display = new TurnDisplay(options(m.adapter, { ...DISPLAY_DEFAULTS, reactions: true }));
    display.start();
    await display.settled(false);
    display.close();
    expect(m.reactions.map((r) => r.emoji)).toEqual(['❌']);
  });

  it('reactions off (the default): no reaction call', async () => {
    const m = memory();
    const display = new TurnDisplay(options(m.adapter));
    display.start();
    await display.settled(true);
    display.close();
    expect(m.reactions).toHaveLength(0);
  });
});

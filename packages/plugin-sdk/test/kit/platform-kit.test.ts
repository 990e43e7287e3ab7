// The kit's adapter skeleton: send limits as configured, start/stop through the intake runner, the event builder.
import type { PlatformCapabilities, PlatformContext } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { recordingLogger } from '../../../../test/contract/recorders.js';
import { createPlatformKit, rateWithin, userMessage } from '../../src/index.js';

const CAPABILITIES: PlatformCapabilities = {
  maxMessageLength: 100,
  formatting: 'plain',
  editing: false,
  typing: false,
  threads: false,
  sendRate: { perChat: rateWithin(5, 5_000, 3) },
};

function context(settings: Record<string, unknown> = {}): PlatformContext {
  return {
    settings,
    env: {},
    logger: recordingLogger().logger,
    cacheDir: '/tmp/echo-cache',
    state: { get: () => undefined, set: () => undefined, delete: () => undefined },
    commands: () => [],
    route: () => undefined,
  };
}

describe('rateWithin', () => {
  it('lets burst go at once and never more than limit per window', () => {
    expect(rateWithin(30, 1_000, 5)).toEqual({ count: 26, perMs: 1_000, burst: 5 });
    expect(rateWithin(5, 5_000, 3)).toEqual({ count: 3, perMs: 5_000, burst: 3 });
    expect(() => rateWithin(2, 1_000, 3)).toThrow(RangeError);
  });
});

describe('createPlatformKit', () => {
  it('paces a remote API, not a loopback one unless send_rate_limit asks', () => {
    const kit = (url: string, settings?: Record<string, unknown>) =>
      createPlatformKit(context(settings), {}, { platform: 'echo', capabilities: CAPABILITIES, apiUrl: url });
    expect(kit('https://echo.example/api').capabilities.sendRate).toBeDefined();
    expect(kit('http://127.0.0.1:9/api').capabilities.sendRate).toBeUndefined();
    expect(
      kit('http://127.0.0.1:9/api', { send_rate_limit: true }).adapter({
        intake: async () => undefined,
        send: async () => ({ ok: true, messageIds: [] }),
        format: (text) => text,
      }).capabilities.sendRate,
    ).toBeDefined();
    expect(() => kit('http://127.0.0.1:9/api', { send_rate_limit: 'yes' })).toThrow(/echo\.send_rate_limit/);
  });

  it('starts the intake until a ready state, and stops: closing, loop, in-flight, stopped(), in that order', async () => {
    const order: string[] = [];
    const kit = createPlatformKit(
      context(),
      {},
      { platform: 'echo', capabilities: CAPABILITIES, apiUrl: 'http://127.0.0.1:9', readyStates: ['disconnected'] },
    );
    const adapter = kit.adapter({
      intake: async (sink, signal) => {
        expect(sink).toBe(target);
        kit.status.set('disconnected');
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
        order.push('loop ended');
      },
      closing: async () => void order.push('closing'),
      stopped: () => void order.push('stopped'),
      send: async () => ({ ok: true, messageIds: [] }),
      format: (text) => `<${text}>`,
    });
    const target = { accept: async () => undefined };
    await adapter.start(target);
    expect([adapter.name, adapter.status().state, kit.signal?.aborted, adapter.format('a')]).toEqual([
      'echo',
      'disconnected',
      false,
      '<a>',
    ]);
    expect('sendTyping' in adapter).toBe(false);
    await adapter.stop();
    expect(order).toEqual(['closing', 'loop ended', 'stopped']);
    expect(adapter.status().state).toBe('stopped');
  });
});

describe('userMessage', () => {
  it('builds a text event, or a media event listing the files’ attachments', () => {
    const source = { platform: 'echo', chatId: 'c1', chatType: 'dm' as const, userId: 'u1' };
    const fields = { messageId: 'm1', source, receivedAt: 5, raw: { id: 1 }, text: 'hi' };
    expect(userMessage(fields, []).event).toEqual({ platform: 'echo', ...fields, internal: false, kind: 'text' });
    const files = [{ id: 'f', attachment: { kind: 'photo' as const, path: null } }];
    const media = userMessage(fields, files);
    expect(media).toEqual({
      event: { platform: 'echo', ...fields, internal: false, kind: 'media', attachments: [files[0]?.attachment] },
      files,
    });
  });
});

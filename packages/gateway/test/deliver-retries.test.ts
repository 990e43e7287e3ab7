// Delivery's retries against a real outbox: a 429 or a 5xx is waited out and sent again, at most
// SEND_MAX_ATTEMPTS tries, and a send that fails on the last try is given up at once (no last wait).
import type { PlatformAdapter, SendResult } from '@hermes/protocol';
import { asyncSqliteStore, openStore } from '@hermes/store';
import { describe, expect, it } from 'vitest';
import { deliver, SEND_MAX_ATTEMPTS } from '../src/delivery/deliver.js';

const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, fatal() {}, child: () => silent };

function adapterAnswering(results: SendResult[]): { adapter: PlatformAdapter; tries: number } {
  const state = { tries: 0 };
  const adapter: PlatformAdapter = {
    name: 'memory',
    capabilities: { maxMessageLength: 500, formatting: 'plain', editing: false, typing: false, threads: false },
    start: async () => {},
    stop: async () => {},
    send: async () => {
      state.tries += 1;
      return results.shift() ?? { ok: true, messageIds: ['1'] };
    },
    sendTyping: async () => {},
    format: (text) => text,
    status: () => ({ state: 'connected', since: 0 }),
  };
  return {
    adapter,
    get tries() {
      return state.tries;
    },
  };
}

describe('delivery retries', () => {
  it('gives up after the last 429 without waiting once more; the row is failed with its attempts', async () => {
    const store = openStore(':memory:');
    const limited: SendResult = { ok: false, error: 'rate_limited', message: '429', retryAfterMs: 1000 };
    const memory = adapterAnswering(Array.from({ length: SEND_MAX_ATTEMPTS }, () => limited));
    const waits: number[] = [];
    const result = await deliver(
      {
        adapters: new Map([['memory', memory.adapter]]),
        commit: asyncSqliteStore(store).commit,
        logger: silent,
        sleep: async (ms) => {
          waits.push(ms);
        },
      },
      { platform: 'memory', chatId: 'c1' },
      'hello',
    );
    expect(result).toMatchObject({ sent: 0, failed: 1 });
    expect(memory.tries).toBe(SEND_MAX_ATTEMPTS);
    expect(waits).toHaveLength(SEND_MAX_ATTEMPTS - 1);
    expect(store.outbox.get(1)).toMatchObject({ status: 'failed', attempts: SEND_MAX_ATTEMPTS });
    store.close();
  });

  it('a 503 then success: one wait, one row sent', async () => {
    const store = openStore(':memory:');
    const memory = adapterAnswering([{ ok: false, error: 'transient', message: 'HTTP 503', status: 503 }]);
    const waits: number[] = [];
    const result = await deliver(
      {
        adapters: new Map([['memory', memory.adapter]]),
        commit: asyncSqliteStore(store).commit,
        logger: silent,
        sleep: async (ms) => {
          waits.push(ms);
        },
      },
      { platform: 'memory', chatId: 'c1' },
      'hello',
    );
    expect(result).toMatchObject({ sent: 1, failed: 0 });
    expect(memory.tries).toBe(2);
    expect(waits).toHaveLength(1);
    expect(store.outbox.get(1)).toMatchObject({ status: 'sent', attempts: 2 });
    store.close();
  });
});

// Gateway.launch(): what `gateway run` calls once it listens. It returns before the platforms have
// connected (so /health can answer `degraded` meanwhile), reads the unfinished inbox at once, and
// resumes a platform's unfinished rows only once that platform's adapter has started.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MessageEvent, PlatformAdapter } from '@hermes/protocol';
import { openStore } from '@hermes/store';
import { afterEach, describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { waitFor } from '../helpers/wait-for.js';
import { type Harness, startHarness } from './harness.js';
import { memoryPlatform } from './memory-platform.js';

const openai = useFakeOpenAI();
let h: Harness | null = null;
afterEach(async () => {
  await h?.stop();
  h = null;
});

/** A message an earlier run accepted and never answered. */
function leftUnfinished(dbPath: string): number {
  const store = openStore(dbPath);
  const event: MessageEvent = {
    kind: 'text',
    platform: 'memory',
    messageId: 'before-the-restart',
    text: 'still there?',
    source: { platform: 'memory', chatId: 'c1', chatType: 'dm', userId: 'u1', userName: 'Ada' },
    internal: false,
    receivedAt: Date.now(),
    raw: {},
  };
  const accepted = store.inbox.accept('memory', 'before-the-restart', event);
  store.close();
  if (!accepted.accepted) throw new Error('not accepted');
  return accepted.id;
}

describe('Gateway.launch', () => {
  it('returns before the platforms connect; a platform’s unfinished rows resume once its adapter has started', async () => {
    const dbPath = join(mkdtempSync(join(tmpdir(), 'hermes-launch-')), 'state.db');
    const rowId = leftUnfinished(dbPath);
    const platform = memoryPlatform();
    let connect: () => void = () => {};
    const connecting = new Promise<void>((resolve) => {
      connect = resolve;
    });
    const create = platform.factory.create;
    platform.factory = {
      ...platform.factory,
      create: (context): PlatformAdapter => {
        const adapter = create(context);
        return {
          ...adapter,
          start: async (sink) => {
            await connecting; // the platform's handshake takes its time
            await adapter.start(sink);
          },
        };
      },
    };
    h = await startHarness(openai.server, { dbPath, platform, start: false });
    const startups: unknown[] = [];
    h.gateway.events.on('gateway:startup', (payload) => {
      startups.push(payload);
    });
    openai.server.script({ text: 'yes, answered after the restart' });
    let done = false;
    const { connected } = h.gateway.launch();
    void connected.then(() => {
      done = true;
    });
    await new Promise((r) => setImmediate(r));
    // launched, not connected: the row is read but not resumed yet (resuming marks it `processing`)
    expect(done).toBe(false);
    expect(h.gateway.platformStates().memory?.state).not.toBe('connected');
    expect(h.store.inbox.get(rowId)?.status).toBe('accepted');
    expect(startups).toEqual([]);
    connect();
    await connected;
    expect(h.gateway.platformStates().memory?.state).toBe('connected');
    // gateway:startup fires once every adapter has started (handlers run in the background)
    await waitFor(() => startups.length > 0, { what: 'gateway:startup' });
    expect(startups).toHaveLength(1);
    await h.gateway.idle();
    expect(platform.sent.map((m) => m.text)).toEqual(['yes, answered after the restart']);
    expect(h.store.inbox.get(rowId)?.status).toBe('done');
  });
});

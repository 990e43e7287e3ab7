// Two faults the chaos suite (test/chaos) found, pinned down in-process:
// - a message accepted while the platforms are still starting was also "resumed" by the start's
//   crash recovery: its turn ran twice and its answer could be sent twice;
// - a 5xx answer to a send lost the reply (only a 429 was retried).
import type { PlatformAdapter } from '@hermes/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { type Harness, startHarness } from './harness.js';
import { memoryPlatform } from './memory-platform.js';

const openai = useFakeOpenAI();
let h: Harness | null = null;
afterEach(async () => {
  await h?.stop();
  h = null;
});

const chat = () => openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'));
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe('restart and send faults', () => {
  it('a message accepted while the platforms are still starting is answered once, never also resumed', async () => {
    const platform = memoryPlatform();
    let open: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    // the adapter takes messages as soon as it is connected, while the gateway's start still waits
    // (as Telegram polls while a slower platform connects)
    const create = platform.factory.create;
    platform.factory = {
      ...platform.factory,
      create: (context): PlatformAdapter => {
        const adapter = create(context);
        return {
          ...adapter,
          start: async (sink) => {
            await adapter.start(sink);
            await gate;
          },
        };
      },
    };
    openai.server.script({ text: 'answered once', delayMs: 300 });
    const starting = startHarness(openai.server, { platform });
    for (;;) {
      try {
        await platform.inject('hello while starting', {}, 'race-1');
        break;
      } catch {
        await sleep(10); // not connected yet
      }
    }
    while (chat().length === 0) await sleep(10); // the turn is running, its inbox row still unanswered
    open();
    h = await starting;
    await h.gateway.idle();
    expect(platform.sent.map((m) => m.text)).toEqual(['answered once']);
    expect(chat()).toHaveLength(1);
    const session = h.store.sessions.activeByKey('memory:c1:dm');
    expect(h.store.transcripts.list(session?.id ?? '')).toHaveLength(2);
  });

  it('a 500/502/503 answer is sent again after a backoff; a send that got no answer is not repeated', async () => {
    h = await startHarness(openai.server);
    openai.server.script({ text: 'after a 502' }, { text: 'after a timeout' });
    h.platform.failures.push({ ok: false, error: 'transient', message: 'HTTP 502: Bad Gateway', status: 502 });
    await h.platform.inject('first');
    await h.gateway.idle();
    expect(h.platform.sent.map((m) => m.text)).toEqual(['after a 502']);

    // no status: the request may have reached the platform, so it is recorded as failed, not repeated
    h.platform.failures.push({ ok: false, error: 'transient', message: 'request timed out' });
    await h.platform.inject('second');
    await h.gateway.idle();
    expect(h.platform.sent.map((m) => m.text)).toEqual(['after a 502']);
    expect(h.platform.failures).toEqual([]);
  });
});

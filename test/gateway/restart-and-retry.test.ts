// Two faults the chaos suite (test/chaos) found, pinned down in-process:
// - a message accepted while the platforms are still starting was also "resumed" by the start's
//   crash recovery: its turn ran twice and its answer could be sent twice;
// - a 5xx answer to a send lost the reply (only a 429 was retried).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { idempotencyKey } from '@hermes/gateway';
import type { EditMessage, PlatformAdapter } from '@hermes/protocol';
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

const chat = () => openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'));

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
    // refused until the platform is connected
    await waitFor(
      () =>
        platform.inject('hello while starting', {}, 'race-1').then(
          () => true,
          () => false,
        ),
      { what: 'the message taken in (the platform connected)' },
    );
    await waitFor(() => chat().length > 0, { what: 'the turn running, its inbox row still unanswered' });
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

  it('every try of a chunk carries one idempotency key, the one a resend after a restart carries', async () => {
    h = await startHarness(openai.server);
    openai.server.script({ text: 'keyed answer' });
    h.platform.failures.push({ ok: false, error: 'transient', message: 'HTTP 503: Service Unavailable', status: 503 });
    await h.platform.inject('keyed');
    await h.gateway.idle();
    const keys = h.platform.tries.map((m) => m.idempotencyKey);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).toBe(keys[0]);
    // the first try cannot repeat anything; the one after a 503 may (the platform may have posted)
    expect(h.platform.tries.map((m) => m.mayRepeat === true)).toEqual([false, true]);
    // the key is derived from the stored row alone: crash recovery, reading the row back, sends the same
    // (the harness's store is fresh: its first outbox row is this answer)
    const row = h.store.outbox.get(1);
    expect(row?.text).toBe('keyed answer');
    expect(row && idempotencyKey(row)).toBe(keys[0]);
    expect(keys[0]?.length).toBeLessThanOrEqual(25);
  });

  it('a resumed message keeps the session key stored when it was accepted', async () => {
    // an earlier run, with group_sessions: shared, accepted a group message and stopped before its turn
    const { openStore } = await import('@hermes/store');
    const dbPath = join(mkdtempSync(join(tmpdir(), 'hermes-resume-key-')), 'state.db');
    const earlier = openStore(dbPath);
    const event = {
      kind: 'text',
      platform: 'memory',
      messageId: 'g-1',
      text: 'resume me',
      source: { platform: 'memory', chatId: 'g1', chatType: 'group', userId: 'u1', userName: 'Ada' },
      internal: false,
      timestamp: Date.now(),
    };
    earlier.inbox.accept('memory', 'g-1', event, { sessionKey: 'memory:g1:group' });
    earlier.close();
    openai.server.script({ text: 'resumed in the shared session' });
    // this run computes per-user group keys (memory:g1:group:u1): the stored key wins
    h = await startHarness(openai.server, {
      dbPath,
      settings: { groupSessions: 'per_user', freeResponseChats: ['memory:g1'] },
    });
    await h.gateway.idle();
    expect(h.platform.sent.map((m) => m.text)).toEqual(['resumed in the shared session']);
    const shared = h.store.sessions.activeByKey('memory:g1:group');
    expect(h.store.transcripts.list(shared?.id ?? '')).toHaveLength(2);
    expect(h.store.sessions.activeByKey('memory:g1:group:u1')).toBeUndefined();
  });

  it('given up after restarts mid-stream: the streamed message becomes the apology, no second message', async () => {
    const { openStore } = await import('@hermes/store');
    const dbPath = join(mkdtempSync(join(tmpdir(), 'hermes-apologise-')), 'state.db');
    const earlier = openStore(dbPath);
    const event = {
      kind: 'text',
      platform: 'memory',
      messageId: 's-1',
      text: 'stream me',
      source: { platform: 'memory', chatId: 'c1', chatType: 'dm', userId: 'u1', userName: 'Ada' },
      internal: false,
      timestamp: Date.now(),
    };
    const accepted = earlier.inbox.accept('memory', 's-1', event, { sessionKey: 'memory:c1:dm' });
    if (!accepted.accepted) throw new Error('not accepted');
    // three starts each resumed it and were cut off while its answer streamed into message sent-9
    for (let i = 0; i < 3; i++) earlier.inbox.mark(accepted.id, 'processing');
    earlier.platformState.set('memory', `stream:${accepted.id}`, JSON.stringify(['sent-9']));
    earlier.close();
    const platform = memoryPlatform();
    const edits: EditMessage[] = [];
    const create = platform.factory.create;
    platform.factory = {
      ...platform.factory,
      create: (context): PlatformAdapter => {
        const adapter = create(context);
        return {
          ...adapter,
          capabilities: { ...adapter.capabilities, editing: true },
          edit: async (message) => {
            edits.push(message);
            return { ok: true, messageIds: [message.messageId] };
          },
        };
      },
    };
    h = await startHarness(openai.server, { dbPath, platform });
    await h.gateway.idle();
    expect(chat()).toHaveLength(0);
    expect(platform.sent).toEqual([]);
    expect(edits.map((e) => [e.messageId, e.text])).toEqual([
      ['sent-9', expect.stringContaining('was interrupted by a restart')],
    ]);
    expect(h.store.inbox.pending()).toEqual([]);
    expect(h.store.platformState.get('memory', `stream:${accepted.id}`) ?? '').toBe('');
  });
});

// pre_gateway_dispatch's handles: narrow objects with the documented operations (platforms, send,
// ingest), never the live gateway or the store; ingest feeds the next turn's history.
import { Gateway } from '@hermes/gateway';
import type { ChatMessage, DispatchHandles } from '@hermes/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { type Harness, startHarness } from './harness.js';

const openai = useFakeOpenAI();
let h: Harness | null = null;
afterEach(async () => {
  await h?.stop();
  h = null;
});

const chat = () => openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'));
const lastMessages = () => (chat().at(-1)?.body as { messages: ChatMessage[] }).messages;

describe('pre_gateway_dispatch handles', () => {
  it('are narrow: only the documented operations, not the gateway or the store', async () => {
    h = await startHarness(openai.server);
    let seen: DispatchHandles | null = null;
    h.hooks.register(
      'pre_gateway_dispatch',
      ({ gateway, sessionStore }) => {
        seen = { gateway, sessionStore };
        return { action: 'skip', reason: 'inspect' } as const;
      },
      { source: 'test', name: 'inspector' },
    );
    await h.platform.inject('hi');
    await h.gateway.idle();
    const handles = seen as DispatchHandles | null;
    expect(handles).not.toBeNull();
    expect(handles?.gateway).not.toBeInstanceOf(Gateway);
    expect(Object.keys(handles?.gateway ?? {}).sort()).toEqual(['platforms', 'send', 'toJSON']);
    expect(Object.keys(handles?.sessionStore ?? {}).sort()).toEqual(['ingest', 'toJSON']);
    expect(Object.isFrozen(handles?.gateway)).toBe(true);
    expect(handles?.gateway.platforms()).toEqual(['memory']);
    expect(await handles?.gateway.send('memory:c9', 'hello from a hook')).toEqual({ ok: true });
    expect(h.platform.sent).toEqual([expect.objectContaining({ chatId: 'c9', text: 'hello from a hook' })]);
    expect(await handles?.gateway.send('nowhere:1', 'x')).toEqual({
      ok: false,
      error: 'platform "nowhere" is not connected',
    });
    expect(JSON.stringify(handles)).toBe('{"gateway":"[gateway handle]","sessionStore":"[session store handle]"}');
  });

  it('ingest appends a skipped message to the chat session; the next turn sees it; no session, nothing written', async () => {
    h = await startHarness(openai.server);
    const ingested: Promise<boolean>[] = [];
    h.hooks.register(
      'pre_gateway_dispatch',
      ({ event, sessionStore }) => {
        if (!event.text.startsWith('psst')) return null;
        ingested.push(sessionStore.ingest(event));
        return { action: 'skip', reason: 'listening' } as const;
      },
      { source: 'test', name: 'listener' },
    );
    await h.platform.inject('psst: before any session');
    await h.gateway.idle();
    openai.server.script({ text: 'first' }, { text: 'second' });
    await h.platform.inject('one');
    await h.gateway.idle();
    await h.platform.inject('psst: the code is 42');
    await h.gateway.idle();
    await h.platform.inject('what is the code?');
    await h.gateway.idle();
    expect(await Promise.all(ingested)).toEqual([false, true]);
    expect(h.platform.sent.map((m) => m.text)).toEqual(['first', 'second']);
    expect(lastMessages().filter((m) => m.role === 'user')).toEqual([
      { role: 'user', content: 'one' },
      { role: 'user', content: 'psst: the code is 42' },
      { role: 'user', content: 'what is the code?' },
    ]);
  });
});

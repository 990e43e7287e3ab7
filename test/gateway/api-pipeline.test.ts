// The API platform through the gateway's pipeline (Gateway.submitTurn with a chat completion's
// job, in-process): dispatch hook, session lanes with the busy mode, max_concurrent_runs,
// session/agent events, what is stored.

import { awaitedSink, completionJob, type DirectOutcome, type Gateway } from '@hermes/gateway';
import type { ChatMessage } from '@hermes/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { waitFor } from '../helpers/wait-for.js';
import { type Harness, startHarness } from './harness.js';

const openai = useFakeOpenAI();
let h: Harness | null = null;
afterEach(async () => {
  await h?.stop();
  h = null;
});

/** A chat completion's job through the gateway, as the route submits it; resolves with its outcome. */
function runApi(
  gateway: Gateway,
  r: { text: string; key: string | null; history: readonly ChatMessage[]; signal: AbortSignal },
): Promise<DirectOutcome> {
  const { sink, outcome } = awaitedSink('http', { signal: r.signal });
  gateway.submitTurn(completionJob(r.text, r.key, r.history, sink));
  return outcome;
}

const completions = () => openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'));
const request = (text: string, key: string | null, signal = new AbortController().signal) => ({
  text,
  key,
  history: [],
  signal,
});

describe('API requests through the pipeline', () => {
  it('a keyed session: session:start once, agent:start/step/end each turn, history kept and stored', async () => {
    h = await startHarness(openai.server);
    const events: { type: string; context: Record<string, unknown> }[] = [];
    h.gateway.events.on(['session:*', 'agent:*'], (type, context) => void events.push({ type, context }));
    openai.server.script({ text: 'one' }, { text: 'two' });
    const first = await runApi(h.gateway, request('first', 'alice'));
    const second = await runApi(h.gateway, request('second', 'alice'));
    expect(first.kind === 'ran' && first.result.finalText).toBe('one');
    expect(second.kind === 'ran' && second.result.finalText).toBe('two');
    await waitFor(() => events.filter((e) => e.type === 'agent:end').length === 2);
    expect(events.map((e) => e.type).filter((t) => t !== 'agent:step')).toEqual([
      'session:start',
      'agent:start',
      'agent:end',
      'agent:start',
      'agent:end',
    ]);
    expect(events[0]?.context).toMatchObject({ platform: 'api', session_key: 'api:alice' });
    const session = h.store.sessions.activeByKey('api:alice');
    expect(session).toBeDefined();
    expect(h.store.transcripts.list(session?.id ?? '').map((m) => m.content)).toEqual([
      'first',
      'one',
      'second',
      'two',
    ]);
  });

  it('a stateless request is answered from its own history and stores nothing', async () => {
    h = await startHarness(openai.server);
    openai.server.script({ text: 'stateless answer' });
    const out = await runApi(h.gateway, {
      ...request('and now?', null),
      history: [
        { role: 'user', content: 'earlier' },
        { role: 'assistant', content: 'reply' },
      ],
    });
    expect(out.kind === 'ran' && out.result.finalText).toBe('stateless answer');
    const sent = (completions()[0]?.body as { messages: { content: string }[] }).messages.map((m) => m.content);
    expect(sent.slice(1)).toEqual(['earlier', 'reply', 'and now?']);
    expect(h.store.sessions.activeByKey('api:null')).toBeUndefined();
  });

  it('pre_gateway_dispatch: a skip is refused without a model call; a rewrite changes the text', async () => {
    h = await startHarness(openai.server);
    h.hooks.register(
      'pre_gateway_dispatch',
      ({ event }) =>
        event.text.includes('nope')
          ? ({ action: 'skip', reason: 'test' } as const)
          : ({ action: 'rewrite', text: `${event.text} (rewritten)` } as const),
      { source: 'test', name: 'policy' },
    );
    expect(await runApi(h.gateway, request('nope', 'bob'))).toEqual({ kind: 'skipped' });
    expect(completions()).toHaveLength(0);
    openai.server.script({ text: 'ok' });
    await runApi(h.gateway, request('hello', 'bob'));
    const sent = (completions()[0]?.body as { messages: { content: string }[] }).messages.at(-1)?.content;
    expect(sent).toBe('hello (rewritten)');
    const metrics = await h.gateway.metrics.scrape();
    expect(metrics).toMatch(/hermes_messages_ignored_total\{platform="api",reason="hook_skip"\} 1/);
  });

  it('busy mode interrupt: a second request for a keyed session cuts off the running one', async () => {
    h = await startHarness(openai.server, { settings: { busyMode: 'interrupt' } });
    openai.server.script({ hang: true }, { text: 'the newer answer' });
    const first = runApi(h.gateway, request('slow', 'carol'));
    await waitFor(() => completions().length === 1);
    const second = await runApi(h.gateway, request('fast', 'carol'));
    const cut = await first;
    expect(cut.kind === 'ran' && cut.result.status).toBe('interrupted');
    expect(second.kind === 'ran' && second.result.finalText).toBe('the newer answer');
  });

  it('busy mode queue: the second request waits for the first; gateway.max_concurrent_runs bounds stateless ones', async () => {
    h = await startHarness(openai.server, { settings: { busyMode: 'queue', maxConcurrentRuns: 1 } });
    let answerFirst = () => {};
    const firstAnswered = new Promise<void>((resolve) => (answerFirst = resolve));
    const replies = ['a', 'b', 'c'];
    openai.server.respond(async () => {
      const text = replies.shift() ?? '?';
      if (text === 'a') await firstAnswered;
      return { text };
    });
    const a = runApi(h.gateway, request('1', 'dave'));
    const b = runApi(h.gateway, request('2', 'dave'));
    const c = runApi(h.gateway, request('3', null));
    await waitFor(() => completions().length === 1);
    // one run slot: the other two wait (the gauge the metrics read), and nothing else reaches the model
    const queued = async () => (await h?.gateway.metrics.scrape())?.match(/^hermes_turns_queued (\d+)$/m)?.[1];
    await waitFor(async () => (await queued()) === '2', { what: 'the other two requests waiting' });
    expect(completions()).toHaveLength(1);
    answerFirst();
    const outs = await Promise.all([a, b, c]);
    expect(outs.map((o) => (o.kind === 'ran' ? o.result.finalText : o.kind)).sort()).toEqual(['a', 'b', 'c']);
  });
});

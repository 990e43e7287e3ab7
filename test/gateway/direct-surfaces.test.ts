// The surfaces without an inbox through the gateway's stages, in-process: a hook's runAgent gets
// the agent:* events and the platform metrics; a command on a job without a session says why; a
// job queued behind its session when the gateway stops is answered `unavailable`.
import { awaitedSink, completionJob, type DirectOutcome, type Gateway } from '@hermes/gateway';
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

function completion(gateway: Gateway, text: string, key: string | null): Promise<DirectOutcome> {
  const { sink, outcome } = awaitedSink('http', { signal: new AbortController().signal });
  gateway.submitTurn(completionJob(text, key, [], sink));
  return outcome;
}

describe('surfaces without an inbox', () => {
  it("a hook's runAgent: agent:start and agent:end as platform gateway, counted in its metrics", async () => {
    h = await startHarness(openai.server);
    const events: { type: string; context: Record<string, unknown> }[] = [];
    h.gateway.events.on(['agent:*', 'session:*'], (type, context) => void events.push({ type, context }));
    openai.server.script({ text: 'all checked' });
    const result = await h.gateway.runOneShot('check the logs', { name: 'boot-md' });
    expect(result).toEqual({ status: 'completed', text: 'all checked' });
    await waitFor(() => events.some((e) => e.type === 'agent:end'));
    expect(events.map((e) => e.type).filter((t) => t !== 'agent:step')).toEqual(['agent:start', 'agent:end']);
    expect(events[0]?.context).toMatchObject({
      platform: 'gateway',
      user_id: 'hook:boot-md',
      message: 'check the logs',
    });
    expect(String(events[0]?.context.session_id)).toMatch(/^hook-boot-md-/);
    expect(events.find((e) => e.type === 'agent:end')?.context).toMatchObject({ response: 'all checked' });
    const metrics = await h.gateway.metrics.scrape();
    expect(metrics).toMatch(/hermes_turns_total\{platform="gateway",status="completed"\} 1/);
    expect(metrics).toMatch(/hermes_messages_received_total\{platform="gateway",result="accepted"\} 1/);
  });

  it('a session command on a stateless request names why there is none; /status still answers', async () => {
    h = await startHarness(openai.server);
    const reset = await completion(h.gateway, '/new', null);
    expect(reset).toMatchObject({
      kind: 'command',
      text: expect.stringMatching(/no session to reset here \(none: a stateless request/),
    });
    const status = await completion(h.gateway, '/status', null);
    expect(status).toMatchObject({ kind: 'command', text: expect.stringContaining('Session: none yet') });
    const home = await completion(h.gateway, '/sethome', 'alice');
    expect(home).toMatchObject({ kind: 'command', text: 'There is no chat here to make the home channel.' });
    expect(openai.server.requests).toHaveLength(0);
    expect(h.store.sessions.activeByKey('api:alice')).toBeUndefined();
  });

  it('a job queued behind its session when the gateway stops is answered unavailable, never run', async () => {
    h = await startHarness(openai.server, { settings: { busyMode: 'queue' } });
    openai.server.script({ hang: true });
    const running = completion(h.gateway, 'the slow one', 'alice');
    await waitFor(() => openai.server.requests.length === 1);
    const queued = completion(h.gateway, 'queued behind it', 'alice');
    await h.stop();
    h = null;
    expect(await queued).toEqual({ kind: 'unavailable' });
    expect(await running).toMatchObject({ kind: 'ran', result: { status: 'interrupted' } });
    expect(openai.server.requests).toHaveLength(1);
  });
});

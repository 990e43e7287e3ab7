// The metrics registry, reconnect counting and the observers (hook bus, shell hooks, model client).
import { ModelClient } from '@hermes/agent';
import { HookBus, type HookCallbackOutcome } from '@hermes/plugins';
import type { HookName, PlatformState } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../../../test/helpers/use-fake-openai.js';
import { waitForValue } from '../../../test/helpers/wait-for.js';
import { METRICS } from '../src/metrics/catalog.js';
import { GatewayMetrics, ownerMetricLabel } from '../src/metrics/gateway-metrics.js';
import { ReconnectTracker } from '../src/metrics/reconnect-tracker.js';
import { parseExposition, type Sample, sampleValue } from './metrics-scrape.js';

const openai = useFakeOpenAI();

const scrape = async (metrics: GatewayMetrics): Promise<Sample[]> => parseExposition(await metrics.scrape());

describe('the registry', () => {
  it('is per gateway (counters never shared) and carries the process metrics', async () => {
    const a = new GatewayMetrics();
    const b = new GatewayMetrics();
    a.platform('telegram').accepted.inc(3);
    b.platform('telegram').accepted.inc();
    const [sa, sb] = [await scrape(a), await scrape(b)];
    expect(sampleValue(sa, 'hermes_messages_received_total', { platform: 'telegram', result: 'accepted' })).toBe(3);
    expect(sampleValue(sb, 'hermes_messages_received_total', { platform: 'telegram', result: 'accepted' })).toBe(1);
    for (const s of [sa, sb]) {
      const names = new Set(s.map((x) => x.name));
      for (const n of [
        'process_cpu_seconds_total',
        'process_resident_memory_bytes',
        'nodejs_eventloop_lag_seconds',
        'nodejs_heap_size_used_bytes',
      ])
        expect(names, n).toContain(n);
    }
    // a scrape does not disturb the totals
    expect(
      sampleValue(await scrape(a), 'hermes_messages_received_total', { platform: 'telegram', result: 'accepted' }),
    ).toBe(3);
  });

  it('exposes every metric of the catalog, with its type', async () => {
    const text = await new GatewayMetrics().scrape();
    for (const spec of Object.values(METRICS)) expect(text, spec.name).toContain(`# TYPE ${spec.name} ${spec.type}`);
    expect(new Set(Object.values(METRICS).map((m) => m.name)).size).toBe(Object.keys(METRICS).length);
    for (const spec of Object.values(METRICS)) expect(spec.name).toMatch(/^hermes_[a-z0-9_]+$/);
  });
});

describe('reconnects', () => {
  it('count returns to connected after the first connection, seen through `since`', () => {
    const t = new ReconnectTracker();
    const st = (state: PlatformState['state'], since: number): PlatformState => ({ state, since });
    expect(t.observe('tg', st('connecting', 1))).toBe(false);
    expect(t.observe('tg', st('connected', 2))).toBe(false); // the first connection
    expect(t.observe('tg', st('connected', 2))).toBe(false); // same connection, sampled again
    expect(t.observe('tg', st('error', 3))).toBe(false);
    expect(t.observe('tg', st('connected', 4))).toBe(true);
    expect(t.observe('tg', st('connected', 9))).toBe(true); // dropped and back between two samples
    expect(t.observe('slack', st('connected', 4))).toBe(false); // per platform
  });

  it('the gateway metrics sample platform states and serve reconnects and up/down', async () => {
    const metrics = new GatewayMetrics();
    const states: Record<string, PlatformState> = { telegram: { state: 'connected', since: 1 } };
    metrics.attach({
      platformStates: () => ({ ...states }),
      lanes: () => ({ running: 0, queued: 0 }),
      outboxPending: async () => [],
    });
    metrics.samplePlatforms();
    states.telegram = { state: 'error', since: 2, error: 'ECONNRESET' };
    let s = await scrape(metrics);
    expect(sampleValue(s, 'hermes_platform_up', { platform: 'telegram' })).toBe(0);
    states.telegram = { state: 'connected', since: 3 };
    s = await scrape(metrics);
    expect(sampleValue(s, 'hermes_platform_up', { platform: 'telegram' })).toBe(1);
    expect(sampleValue(s, 'hermes_platform_reconnects_total', { platform: 'telegram' })).toBe(1);
  });
});

describe('observers', () => {
  it('the hook bus reports each callback: ok, error (sync and async), timeout', async () => {
    const seen: { hook: HookName; owner: string; ms: number; outcome: HookCallbackOutcome }[] = [];
    const bus = new HookBus({
      timeoutMs: 50,
      observer: (hook, owner, ms, outcome) => seen.push({ hook, owner: `${owner.source}:${owner.name}`, ms, outcome }),
    });
    bus.register('on_session_start', () => undefined, { source: 'test', name: 'sync-ok' });
    bus.register('on_session_start', async () => undefined, { source: 'test', name: 'async-ok' });
    bus.register(
      'on_session_start',
      () => {
        throw new Error('x');
      },
      { source: 'test', name: 'sync-throw' },
    );
    bus.register('on_session_start', async () => Promise.reject(new Error('y')), {
      source: 'test',
      name: 'async-reject',
    });
    bus.register('on_session_start', () => new Promise(() => {}), { source: 'test', name: 'hang' });
    await bus.invoke('on_session_start', { sessionId: 's', platform: 'cli', model: 'm' });
    expect(seen.map((s) => [s.owner, s.outcome])).toEqual([
      ['test:sync-ok', 'ok'],
      ['test:async-ok', 'ok'],
      ['test:sync-throw', 'error'],
      ['test:async-reject', 'error'],
      ['test:hang', 'timeout'],
    ]);
    expect(seen.every((s) => s.hook === 'on_session_start')).toBe(true);
    expect(seen.at(-1)?.ms).toBeGreaterThanOrEqual(45);
  });

  it('shell hooks are labelled by their program, never their arguments', () => {
    expect(ownerMetricLabel({ source: 'shell', name: '~/hooks/guard.sh --token s3cr3t' })).toBe(
      'shell:~/hooks/guard.sh',
    );
    expect(ownerMetricLabel({ source: 'plugin', name: 'calculator' })).toBe('plugin:calculator');
  });

  it('the model client reports each attempt: ok, an HTTP error, no connection, interrupted', async () => {
    const seen: [string, string | null, number][] = [];
    const observer = (_ms: number, outcome: string, kind: string | null, status: number) =>
      seen.push([outcome, kind, status]);
    const client = new ModelClient({
      baseUrl: openai.server.url,
      apiKey: '',
      timeoutMs: 5_000,
      maxRetries: 0,
      hooks: new HookBus(),
      observer,
    });
    const body = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }] };
    openai.server.script({ text: 'fine' }, { status: 503 });
    await client.complete({ body, sessionId: 's' });
    await expect(client.complete({ body, sessionId: 's' })).rejects.toThrow(/503/);
    const refused = new ModelClient({
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKey: '',
      timeoutMs: 5_000,
      maxRetries: 0,
      hooks: new HookBus(),
      observer,
    });
    await expect(refused.complete({ body, sessionId: 's' })).rejects.toThrow();
    openai.server.script({ hang: true });
    const controller = new AbortController();
    const pending = client.complete({ body, sessionId: 's', signal: controller.signal });
    await waitForValue(
      async () => openai.server.requests.length,
      (n) => n >= 3,
      { what: 'the hanging request' },
    );
    controller.abort();
    await expect(pending).rejects.toThrow(/interrupted/);
    expect(seen).toEqual([
      ['ok', null, 200],
      ['error', 'http', 503],
      ['error', 'connection', 0],
      ['interrupted', null, 0],
    ]);
  });
});

// The gateway's metrics: what each pipeline stage records, the scrape-time gauges and GET /metrics
// (the registry, reconnects and the observers are in metrics-observers.test.ts).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ModelClient, ToolRegistry } from '@hermes/agent';
import { HookBus } from '@hermes/plugins';
import { silentLogger } from '@hermes/protocol';
import { asyncSqliteStore, openStore, type Store } from '@hermes/store';
import { afterEach, describe, expect, it } from 'vitest';
import { type MemoryPlatform, memoryPlatform } from '../../../test/gateway/memory-platform.js';
import { sqliteGatewayStore } from '../../../test/helpers/gateway-store.js';
import { useFakeOpenAI } from '../../../test/helpers/use-fake-openai.js';
import { waitForValue } from '../../../test/helpers/wait-for.js';
import { deliver } from '../src/delivery/deliver.js';
import { buildServer } from '../src/http/server.js';
import { GatewayMetrics } from '../src/metrics/gateway-metrics.js';
import { Gateway } from '../src/runner/gateway.js';
import type { GatewaySettings } from '../src/runner/gateway-deps.js';
import { parseExposition, type Sample, sampleValue } from './metrics-scrape.js';

const openai = useFakeOpenAI();

interface Running {
  gateway: Gateway;
  metrics: GatewayMetrics;
  platform: MemoryPlatform;
  hooks: HookBus;
  store: Store;
  client: ModelClient;
  stop(): Promise<void>;
}

let running: Running | null = null;
afterEach(async () => {
  await running?.stop();
  running = null;
});

/** An in-process gateway whose hook bus, model client and gateway hooks all report to one GatewayMetrics. */
async function startGateway(
  options: { settings?: Partial<GatewaySettings>; env?: Record<string, string>; maxRetries?: number } = {},
): Promise<Running> {
  const metrics = new GatewayMetrics();
  const store = openStore(join(mkdtempSync(join(tmpdir(), 'hermes-metrics-')), 'state.db'));
  const hooks = new HookBus({ timeoutMs: 300, observer: metrics.observeHookCallback });
  const client = new ModelClient({
    baseUrl: openai.server.url,
    apiKey: '',
    timeoutMs: 5_000,
    maxRetries: options.maxRetries ?? 0,
    hooks,
    observer: metrics.observeModelRequest,
  });
  const platform = memoryPlatform();
  const gateway = new Gateway({
    settings: {
      turn: { model: 'test-model', maxIterations: 5, toolTimeoutMs: 5_000, toolsets: ['*'], cwd: process.cwd() },
      busyMode: 'queue',
      maxConcurrentRuns: 4,
      freeResponseChats: [],
      groupSessions: 'per_user',
      resetPolicy: { mode: 'none', idle_minutes: 60, at_hour: 4 },
      platformSettings: {},
      cacheDir: join(tmpdir(), 'hermes-metrics-cache'),
      ...options.settings,
    },
    env: { MEMORY_ALLOWED_USERS: 'u1,u2', ...options.env },
    logger: silentLogger,
    hooks,
    tools: new ToolRegistry(),
    client,
    store: sqliteGatewayStore(store),
    platforms: [platform.factory],
    pluginCommands: () => new Map(),
    pluginSummary: () => 'Plugins (0):',
    setHomeChannel: () => {},
    metrics,
  });
  await gateway.start();
  return {
    gateway,
    metrics,
    platform,
    hooks,
    store,
    client,
    async stop() {
      await gateway.stop(0);
      store.close();
    },
  };
}

const scrape = async (metrics: GatewayMetrics): Promise<Sample[]> => parseExposition(await metrics.scrape());

describe('pipeline metrics', () => {
  it('counters match the messages sent: accepted, duplicates, unknown users, skips, sends, a 429, turns, model and hook calls', async () => {
    running = await startGateway({ maxRetries: 1 });
    const { gateway, metrics, platform, hooks } = running;
    hooks.register(
      'pre_gateway_dispatch',
      ({ event }) => (event.text.startsWith('#skip') ? { action: 'skip' as const, reason: 'test' } : undefined),
      { source: 'test', name: 'skipper' },
    );
    hooks.register(
      'pre_llm_call',
      () => {
        throw new Error('boom');
      },
      { source: 'test', name: 'boom' },
    );
    gateway.events.on(
      'agent:end',
      () => {
        throw new Error('handler boom');
      },
      'thrower',
    );
    // the first model attempt fails with a 500 and is retried at once; every other one answers
    openai.server.script({ status: 500, headers: { 'retry-after-ms': '0' } });
    openai.server.respond(() => ({ text: 'answer' }));
    // the platform's first send answers 429
    platform.failures.push({ ok: false, error: 'rate_limited', message: 'Too Many Requests', retryAfterMs: 10 });

    const N = 6; // allowed DMs, each in its own chat
    const D = 2; // redeliveries of answered messages
    const U = 3; // DMs from unknown users (answered with a pairing code)
    const G = 2; // group messages not addressed to the bot
    const S = 2; // skipped by the pre_gateway_dispatch hook
    for (let i = 0; i < N; i++)
      await platform.inject(`question ${i}`, { chatId: `c${i}`, userId: `u${(i % 2) + 1}` }, `a${i}`);
    await gateway.idle();
    for (let i = 0; i < D; i++) await platform.inject(`question ${i}`, { chatId: `c${i}`, userId: 'u1' }, `a${i}`);
    for (let i = 0; i < U; i++) await platform.inject('let me in', { chatId: `s${i}`, userId: `stranger${i}` });
    for (let i = 0; i < G; i++) await platform.inject('ambient chatter', { chatType: 'group', chatId: 'g1' });
    for (let i = 0; i < S; i++) await platform.inject(`#skip ${i}`, { chatId: 'c0' });
    await gateway.idle();

    // gateway hook handlers run on a later tick: wait for the last one
    const samples = await waitForValue(
      () => scrape(metrics),
      (s) => sampleValue(s, 'hermes_gateway_hook_failures_total', { handler: 'thrower', reason: 'error' }) >= N,
      { what: 'the gateway hook handlers' },
    );
    const v = (name: string, labels: Record<string, string> = {}) => sampleValue(samples, name, labels);
    const mem = (extra: Record<string, string> = {}) => ({ platform: 'memory', ...extra });
    const counts = {
      accepted: v('hermes_messages_received_total', mem({ result: 'accepted' })),
      duplicate: v('hermes_messages_received_total', mem({ result: 'duplicate' })),
      unauthorized: v('hermes_messages_ignored_total', mem({ reason: 'unauthorized' })),
      notAddressed: v('hermes_messages_ignored_total', mem({ reason: 'not_addressed' })),
      hookSkip: v('hermes_messages_ignored_total', mem({ reason: 'hook_skip' })),
      sent: v('hermes_messages_sent_total', mem()),
      rateLimited: v('hermes_send_rate_limited_total', mem()),
      turnsCompleted: v('hermes_turns_total', mem({ status: 'completed' })),
      turnLatencyCount: v('hermes_turn_duration_seconds_count', mem()),
      modelOk: v('hermes_model_request_duration_seconds_count', { outcome: 'ok' }),
      modelErrors: v('hermes_model_request_errors_total', { kind: 'http', status: '500' }),
    };
    console.log(`metrics vs sent: ${JSON.stringify(counts)}; platform received ${platform.sent.length} messages`);
    expect(counts).toEqual({
      accepted: N + U + G + S,
      duplicate: D,
      unauthorized: U,
      notAddressed: G,
      hookSkip: S,
      sent: N + U,
      rateLimited: 1,
      turnsCompleted: N,
      turnLatencyCount: N,
      modelOk: N,
      modelErrors: 1,
    });
    expect(platform.sent).toHaveLength(counts.sent); // the counter is what the platform really got
    expect(v('hermes_messages_send_failures_total', mem({ error: 'rate_limited' }))).toBe(0);
    expect(v('hermes_model_request_duration_seconds_count', { outcome: 'error' })).toBe(1);
    // every turn's latency fits under the last bucket and the sum is real time, not zero
    expect(v('hermes_turn_duration_seconds_bucket', mem({ le: '300' }))).toBe(N);
    expect(v('hermes_turn_duration_seconds_sum', mem())).toBeGreaterThan(0);
    // the hook bus: one pre_gateway_dispatch callback per accepted message, a throwing pre_llm_call per turn
    const skipper = { hook: 'pre_gateway_dispatch', owner: 'test:skipper' };
    expect(v('hermes_hook_duration_seconds_count', skipper)).toBe(N + U + G + S);
    expect(v('hermes_hook_failures_total', { ...skipper, reason: 'error' })).toBe(0);
    expect(v('hermes_hook_failures_total', { hook: 'pre_llm_call', owner: 'test:boom', reason: 'error' })).toBe(N);
    expect(v('hermes_gateway_hook_duration_seconds_count', { handler: 'thrower' })).toBe(N);
    // nothing left running, queued or unsent; the platform is up and never reconnected
    expect(v('hermes_turns_running')).toBe(0);
    expect(v('hermes_turns_queued')).toBe(0);
    expect(v('hermes_outbox_pending_messages', mem())).toBe(0);
    expect(v('hermes_platform_up', mem())).toBe(1);
    expect(v('hermes_platform_reconnects_total', mem())).toBe(0);
  });

  it('gauges read at scrape time: running and queued turns, and the outbox backlog while a 429 is waited out', async () => {
    running = await startGateway({ settings: { maxConcurrentRuns: 1 } });
    const { gateway, metrics, platform } = running;
    openai.server.respond(() => ({ text: 'slow answer', delayMs: 600 }));
    // chat A: a turn and one queued behind it (busy mode queue); chat B: waits for the one run slot
    await platform.inject('first', { chatId: 'A' });
    await platform.inject('second', { chatId: 'A' });
    await platform.inject('third', { chatId: 'B', userId: 'u2' });
    const busy = await waitForValue(
      () => scrape(metrics),
      (s) => sampleValue(s, 'hermes_turns_running') === 1 && sampleValue(s, 'hermes_turns_queued') === 2,
      { what: 'one running turn and two waiting messages' },
    );
    expect(sampleValue(busy, 'hermes_turns_running')).toBe(1);
    await gateway.idle();
    const idle = await scrape(metrics);
    expect([sampleValue(idle, 'hermes_turns_running'), sampleValue(idle, 'hermes_turns_queued')]).toEqual([0, 0]);
    expect(sampleValue(idle, 'hermes_turns_total', { platform: 'memory', status: 'completed' })).toBe(3);

    openai.server.respond(() => ({ text: 'answer' }));
    platform.failures.push({ ok: false, error: 'rate_limited', message: 'Too Many Requests', retryAfterMs: 1_500 });
    await platform.inject('fourth', { chatId: 'A' });
    const waiting = await waitForValue(
      () => scrape(metrics),
      (s) => sampleValue(s, 'hermes_send_rate_limited_total', { platform: 'memory' }) === 1,
      { what: 'the outbox row waiting out the 429' },
    );
    expect(sampleValue(waiting, 'hermes_outbox_pending_messages', { platform: 'memory' })).toBe(1);
    await gateway.idle();
    const after = await scrape(metrics);
    expect(sampleValue(after, 'hermes_outbox_pending_messages', { platform: 'memory' })).toBe(0);
    expect(sampleValue(after, 'hermes_messages_sent_total', { platform: 'memory' })).toBe(4);
  });

  it('a failed send is counted by its error kind, and a platform with no adapter as not_connected', async () => {
    running = await startGateway();
    const { gateway, metrics, platform } = running;
    openai.server.respond(() => ({ text: 'answer' }));
    platform.failures.push({ ok: false, error: 'forbidden', message: 'bot was blocked by the user' });
    await platform.inject('hello');
    await gateway.idle();
    const result = await gateway.sendTo({ platform: 'nowhere', chatId: '1' }, 'hi');
    expect(result.failed).toBe(1);
    const s = await scrape(metrics);
    expect(sampleValue(s, 'hermes_messages_send_failures_total', { platform: 'memory', error: 'forbidden' })).toBe(1);
    expect(sampleValue(s, 'hermes_messages_send_failures_total', { platform: 'nowhere', error: 'not_connected' })).toBe(
      1,
    );
    expect(sampleValue(s, 'hermes_messages_sent_total', { platform: 'memory' })).toBe(0);
    // the turn completed but its answer was not delivered: no latency observation
    expect(sampleValue(s, 'hermes_turns_total', { platform: 'memory', status: 'completed' })).toBe(1);
    expect(sampleValue(s, 'hermes_turn_duration_seconds_count', { platform: 'memory' })).toBe(0);
  });

  it('deliver() without a gateway reports to the observer it is given', async () => {
    const metrics = new GatewayMetrics();
    const store = openStore(':memory:');
    await deliver(
      { adapters: new Map(), commit: asyncSqliteStore(store).commit, logger: silentLogger, observer: metrics },
      { platform: 'x', chatId: '1' },
      'hi',
    );
    expect(
      sampleValue(await scrape(metrics), 'hermes_messages_send_failures_total', {
        platform: 'x',
        error: 'not_connected',
      }),
    ).toBe(1);
    store.close();
  });
});

describe('the hermes_user_* series', () => {
  it('give each user a series up to the bound; later users share `other`, their counts kept', async () => {
    const metrics = new GatewayMetrics({ maxUserSeries: 2 });
    metrics.userTurn('telegram:1', 'user');
    metrics.userTurn('telegram:2', 'user');
    metrics.userTurn('telegram:3', 'user');
    metrics.userTurn('telegram:4', 'admin');
    metrics.userTurn('telegram:1', 'user');
    metrics.userUsage('telegram:5', 100, 0.5);
    metrics.userLimited('telegram:2', 'tokens_per_day');
    const s = await scrape(metrics);
    expect(sampleValue(s, 'hermes_user_turns_total', { user: 'telegram:1', tier: 'user' })).toBe(2);
    expect(sampleValue(s, 'hermes_user_turns_total', { user: 'telegram:2', tier: 'user' })).toBe(1);
    expect(sampleValue(s, 'hermes_user_turns_total', { user: 'other', tier: 'user' })).toBe(1);
    expect(sampleValue(s, 'hermes_user_turns_total', { user: 'other', tier: 'admin' })).toBe(1);
    expect(sampleValue(s, 'hermes_user_tokens_total', { user: 'other' })).toBe(100);
    expect(sampleValue(s, 'hermes_user_limited_total', { user: 'telegram:2', limit: 'tokens_per_day' })).toBe(1);
    const users = new Set(s.filter((x) => x.name.startsWith('hermes_user_')).map((x) => x.labels.user));
    expect([...users].sort()).toEqual(['other', 'telegram:1', 'telegram:2']);
  });
});

describe('GET /metrics', () => {
  const api = (r: Running, apiKey: string | undefined) => ({
    apiKey,
    model: 'test-model',
    maxIterations: 5,
    toolTimeoutMs: 5_000,
    toolsets: ['*'],
    cwd: process.cwd(),
    env: {},
    client: r.client,
    tools: new ToolRegistry(),
    hooks: r.hooks,
    logger: silentLogger,
    sessions: sqliteGatewayStore(r.store).sessions,
    transcripts: sqliteGatewayStore(r.store).transcripts,
  });

  it('serves the Prometheus text format; open on loopback without API_SERVER_KEY', async () => {
    running = await startGateway();
    const server = buildServer(running.gateway, {
      host: '127.0.0.1',
      version: 't',
      startedAt: Date.now(),
      api: api(running, undefined),
    });
    const res = await server.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.body).toContain('# TYPE hermes_messages_received_total counter');
    expect(res.body).toContain('hermes_platform_up{platform="memory"} 1');
    await server.app.close();
  });

  it('with API_SERVER_KEY it takes the same bearer key as the API platform', async () => {
    running = await startGateway();
    const server = buildServer(running.gateway, {
      host: '127.0.0.1',
      version: 't',
      startedAt: Date.now(),
      api: api(running, 'sekret-key-123'),
    });
    const get = (authorization?: string) =>
      server.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
    const missing = await get();
    expect(missing.statusCode).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer');
    expect(missing.body).not.toContain('hermes_');
    expect((await get('Bearer wrong')).statusCode).toBe(401);
    const ok = await get('Bearer sekret-key-123');
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('hermes_messages_received_total');
    await server.app.close();
  });
});

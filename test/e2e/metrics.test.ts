// GET /metrics end to end: `hermes gateway run` with real grammy against the fake Bot API, the real
// openai client against the fake model, a user plugin hook and a gateway hook. Messages of every
// kind are sent (allowed, redelivered, from unknown users, skipped by a hook; a 429; a model 500;
// a dropped connection) and the scraped counters must equal what was sent.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Update } from 'grammy/types';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { METRICS } from '../../packages/gateway/src/metrics/catalog.js';
import { metricTypes, parseExposition, type Sample, sampleValue } from '../../packages/gateway/test/metrics-scrape.js';
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram-server.js';
import { tempHome, trustHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { quietPeriod, waitForValue } from '../helpers/wait-for.js';

const TOKEN = '123456789:AAHfaketokenMETRICSfaketoken9012';
const API_KEY = 'metrics-e2e-api-key-0123456789';
const ALLOWED = [42, 43, 44, 45];
const openai = useFakeOpenAI();
let tg: FakeTelegram;
beforeAll(async () => {
  tg = await startFakeTelegram({ token: TOKEN, longPollCapMs: 200 });
});
afterAll(async () => {
  await tg.close();
});
beforeEach(() => tg.reset());

/** HERMES_HOME with a plugin whose pre_gateway_dispatch hook skips "#skip" messages and a gateway hook that throws. */
function prepareHome(): string {
  const home = tempHome();
  writeFileSync(
    join(home, 'config.yaml'),
    // hooks_auto_accept: the gateway hook below loads without `hermes hooks approve`
    'plugins:\n  enabled: [skipper]\nagent:\n  api_max_retries: 1\ngateway:\n  hook_timeout_s: 5\nhooks_auto_accept: true\n',
  );
  const plugin = join(home, 'plugins', 'skipper');
  mkdirSync(plugin, { recursive: true });
  writeFileSync(join(plugin, 'plugin.yaml'), 'name: skipper\nversion: 1.0.0\nprovides_hooks: [pre_gateway_dispatch]\n');
  writeFileSync(
    join(plugin, 'index.ts'),
    `export function register(ctx: { registerHook(name: string, cb: (p: { event: { text: string } }) => unknown): void }): void {
  ctx.registerHook('pre_gateway_dispatch', ({ event }) =>
    event.text.startsWith('#skip') ? { action: 'skip', reason: 'metrics test' } : undefined,
  );
}
`,
  );
  trustHome(home); // the user plugin and hooks_auto_accept, approved by the operator
  const hook = join(home, 'hooks', 'thrower');
  mkdirSync(hook, { recursive: true });
  writeFileSync(
    join(hook, 'HOOK.yaml'),
    'name: thrower\ndescription: throws on every answer\nevents:\n  - "agent:end"\n',
  );
  writeFileSync(join(hook, 'handler.ts'), `export function handle() { throw new Error('thrower boom'); }\n`);
  return home;
}

describe('GET /metrics of hermes gateway run', () => {
  it('counters match the messages sent; the bearer key is required; a dropped connection counts one reconnect', async () => {
    const home = prepareHome();
    const gw = await spawnGateway({
      HERMES_HOME: home,
      OPENAI_BASE_URL: openai.server.url,
      HERMES_INFERENCE_MODEL: 'test-model',
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_API_ROOT: tg.apiRoot,
      TELEGRAM_ALLOWED_USERS: ALLOWED.join(','),
      API_SERVER_KEY: API_KEY,
    });
    const get = (authorization?: string) =>
      fetch(`${gw.url}/metrics`, { headers: authorization ? { authorization } : {} });
    const scrape = async (): Promise<Sample[]> => {
      const res = await get(`Bearer ${API_KEY}`);
      expect(res.status).toBe(200);
      return parseExposition(await res.text());
    };
    try {
      await waitForValue(
        () => tg.pendingPolls(),
        (n) => n > 0,
        { what: 'the first getUpdates poll' },
      );

      // the key: required, and the body never leaks without it
      const refused = await get();
      expect(refused.status).toBe(401);
      expect(await refused.text()).not.toContain('hermes_');
      expect((await get('Bearer wrong-key')).status).toBe(401);
      const first = await get(`Bearer ${API_KEY}`);
      expect(first.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      const firstText = await first.text();
      const types = metricTypes(firstText);
      for (const spec of Object.values(METRICS)) expect(types.get(spec.name), spec.name).toBe(spec.type);
      for (const name of ['process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'process_cpu_seconds_total'])
        expect(types.has(name), name).toBe(true);

      // the model's first attempt answers 500 (retried at once); the Bot API's first sendMessage answers 429
      openai.server.script({ status: 500, headers: { 'retry-after-ms': '0' } });
      openai.server.respond(() => ({ text: 'an answer' }));
      tg.failNext('sendMessage', { status: 429, retryAfter: 1 });

      const ROUNDS = 3;
      const N = ALLOWED.length * ROUNDS; // allowed DMs
      const answered: Update[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        // one message per user at a time: a second message to a busy session would interrupt the first
        for (const user of ALLOWED)
          answered.push(tg.pushMessage({ chatId: user, userId: user, text: `question ${round} from ${user}` }));
        await waitForValue(
          () => tg.sent.length,
          (n) => n >= ALLOWED.length * (round + 1),
          { what: `round ${round} answered` },
        );
      }
      const D = 3; // the same updates again, as after a lost acknowledgement
      for (const update of answered.slice(0, D)) tg.pushUpdate(update);
      const U = 4; // DMs from unknown users: each gets a pairing code
      for (let i = 0; i < U; i++) tg.pushMessage({ chatId: 900 + i, userId: 900 + i, text: 'let me in' });
      const S = 2; // skipped by the plugin's pre_gateway_dispatch hook
      for (let i = 0; i < S; i++) tg.pushMessage({ chatId: 42, userId: 42, text: `#skip ${i}` });

      const samples = await waitForValue(
        scrape,
        (s) =>
          sampleValue(s, 'hermes_messages_received_total', { platform: 'telegram', result: 'accepted' }) >= N + U + S &&
          sampleValue(s, 'hermes_messages_received_total', { platform: 'telegram', result: 'duplicate' }) >= D &&
          sampleValue(s, 'hermes_messages_sent_total', { platform: 'telegram' }) >= N + U &&
          sampleValue(s, 'hermes_gateway_hook_failures_total', { handler: 'thrower', reason: 'error' }) >= N,
        { what: 'every message counted' },
      );
      await quietPeriod(300, 'room for anything extra (a duplicate answer) to show');
      const after = await scrape();
      const v = (name: string, labels: Record<string, string> = {}) => sampleValue(after, name, labels);
      const tgl = (extra: Record<string, string> = {}) => ({ platform: 'telegram', ...extra });
      const counts = {
        accepted: v('hermes_messages_received_total', tgl({ result: 'accepted' })),
        duplicate: v('hermes_messages_received_total', tgl({ result: 'duplicate' })),
        unauthorized: v('hermes_messages_ignored_total', tgl({ reason: 'unauthorized' })),
        hookSkip: v('hermes_messages_ignored_total', tgl({ reason: 'hook_skip' })),
        sent: v('hermes_messages_sent_total', tgl()),
        rateLimited: v('hermes_send_rate_limited_total', tgl()),
        turnsCompleted: v('hermes_turns_total', tgl({ status: 'completed' })),
        turnLatencyCount: v('hermes_turn_duration_seconds_count', tgl()),
        modelOk: v('hermes_model_request_duration_seconds_count', { outcome: 'ok' }),
        modelHttp500: v('hermes_model_request_errors_total', { kind: 'http', status: '500' }),
        pluginHookCalls: v('hermes_hook_duration_seconds_count', {
          hook: 'pre_gateway_dispatch',
          owner: 'plugin:skipper',
        }),
        gatewayHookFailures: v('hermes_gateway_hook_failures_total', { handler: 'thrower', reason: 'error' }),
      };
      const sentAsSeen = {
        accepted: N + U + S,
        duplicate: D,
        unauthorized: U,
        hookSkip: S,
        sent: N + U,
        rateLimited: 1,
        turnsCompleted: N,
        turnLatencyCount: N,
        modelOk: N,
        modelHttp500: 1,
        pluginHookCalls: N + U + S,
        gatewayHookFailures: N,
      };
      console.log(`metrics e2e: sent ${JSON.stringify(sentAsSeen)}`);
      console.log(`metrics e2e: /metrics ${JSON.stringify(counts)}; Bot API sendMessage ok ${tg.sent.length}`);
      expect(samples.length).toBeGreaterThan(0);
      expect(counts).toEqual(sentAsSeen);
      expect(tg.sent).toHaveLength(counts.sent); // what the counter says is what Telegram got
      expect(tg.calls.filter((c) => c.method === 'sendMessage' && c.status === 429)).toHaveLength(1);
      expect(v('hermes_messages_ignored_total', tgl({ reason: 'not_addressed' }))).toBe(0);
      expect(v('hermes_turn_duration_seconds_sum', tgl())).toBeGreaterThan(0);
      expect(v('hermes_turns_running')).toBe(0);
      expect(v('hermes_turns_queued')).toBe(0);
      expect(v('hermes_outbox_pending_messages', tgl())).toBe(0);
      expect(v('hermes_platform_up', tgl())).toBe(1);
      expect(v('hermes_platform_reconnects_total', tgl())).toBe(0);

      // the platform drops every connection: the poller reconnects, counted once
      tg.dropConnections();
      const reconnected = await waitForValue(
        scrape,
        (s) =>
          sampleValue(s, 'hermes_platform_reconnects_total', tgl()) >= 1 &&
          sampleValue(s, 'hermes_platform_up', tgl()) === 1,
        { what: 'the reconnect' },
      );
      expect(sampleValue(reconnected, 'hermes_platform_reconnects_total', tgl())).toBe(1);
      console.log('metrics e2e: 1 dropped connection, hermes_platform_reconnects_total 1');
    } finally {
      expect(await gw.stop()).toBe(0);
    }
    expect(gw.stderr()).not.toContain(API_KEY);
  });
});

// The bundled plugin loads through the real loader (jiti) and registers a PlatformFactory; settings checks.
import { fileURLToPath } from 'node:url';
import { HookBus, loadPlugins, PluginRegistries } from '@hermes/plugins';
import type { PlatformFactory } from '@hermes/protocol';
import { silentLogger } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { slackFactory } from '../factory.js';
import { readSlackSettings } from '../settings.js';
import { APP_TOKEN, BOT_TOKEN, memoryState, SIGNING_SECRET } from './harness.js';

const PLUGINS = fileURLToPath(new URL('../../..', import.meta.url));

function isFactory(value: unknown): value is PlatformFactory {
  return typeof value === 'object' && value !== null && 'create' in value && typeof value.create === 'function';
}

describe('slack plugin', () => {
  it('loads without opt-in as a bundled platform plugin and registers { name, factory }', async () => {
    const registries = new PluginRegistries();
    const records = await loadPlugins({
      dirs: [{ dir: PLUGINS, source: 'bundled' }],
      enabled: [],
      disabled: [],
      env: { SLACK_BOT_TOKEN: 'set' },
      tools: { register: () => () => {} },
      hooks: new HookBus(),
      logger: silentLogger,
      host: { registries },
    });
    const record = records.find((r) => r.key === 'platforms/slack');
    expect(record?.error).toBeNull();
    expect(record?.state).toBe('enabled');
    expect(record?.manifest).toMatchObject({ name: 'slack', kind: 'platform' });
    const factory = registries.platforms.get('slack')?.factory;
    expect(isFactory(factory)).toBe(true);
    if (!isFactory(factory)) return;
    expect(factory.name).toBe('slack');
  });

  it('is not imported at all without SLACK_BOT_TOKEN (its SDK stays unloaded)', async () => {
    const registries = new PluginRegistries();
    const records = await loadPlugins({
      dirs: [{ dir: PLUGINS, source: 'bundled' }],
      enabled: [],
      disabled: [],
      env: {},
      tools: { register: () => () => {} },
      hooks: new HookBus(),
      logger: silentLogger,
      host: { registries },
    });
    const record = records.find((r) => r.key === 'platforms/slack');
    expect(record?.state).toBe('env_missing');
    expect(record?.error).toBe('missing: SLACK_BOT_TOKEN');
    expect(registries.platforms.has('slack')).toBe(false);
  });

  it.each([
    [{ SLACK_BOT_TOKEN: BOT_TOKEN, SLACK_APP_TOKEN: APP_TOKEN }, true],
    [{ SLACK_BOT_TOKEN: BOT_TOKEN, SLACK_SIGNING_SECRET: SIGNING_SECRET }, true],
    [{ SLACK_BOT_TOKEN: BOT_TOKEN }, false],
    [{ SLACK_APP_TOKEN: APP_TOKEN, SLACK_SIGNING_SECRET: SIGNING_SECRET }, false],
    [{ SLACK_BOT_TOKEN: ' ', SLACK_APP_TOKEN: APP_TOKEN }, false],
  ])('hasCredentials(%o) is %s', (env, expected) => {
    expect(slackFactory.hasCredentials(env)).toBe(expected);
  });

  it('creates an adapter without touching the network (HTTP mode adds its route)', () => {
    const routes: string[] = [];
    const adapter = slackFactory.create({
      settings: { mode: 'http', api_url: 'http://127.0.0.1:9/api/' },
      env: { SLACK_BOT_TOKEN: BOT_TOKEN, SLACK_SIGNING_SECRET: SIGNING_SECRET },
      logger: silentLogger,
      cacheDir: '/nonexistent',
      commands: () => [],
      state: memoryState(),
      route: (method, path) => void routes.push(`${method} ${path}`),
    });
    expect(adapter.name).toBe('slack');
    expect(adapter.status().state).toBe('disconnected');
    expect(routes).toEqual(['POST /slack/events']);
  });
});

describe('slack settings', () => {
  const socketEnv = { SLACK_BOT_TOKEN: BOT_TOKEN, SLACK_APP_TOKEN: APP_TOKEN };
  const httpEnv = { SLACK_BOT_TOKEN: BOT_TOKEN, SLACK_SIGNING_SECRET: SIGNING_SECRET };

  it('defaults to Socket Mode against slack.com when the app token is set', () => {
    expect(readSlackSettings({}, socketEnv)).toEqual({
      token: BOT_TOKEN,
      appToken: APP_TOKEN,
      apiUrl: 'https://slack.com/api/',
      mode: 'socket',
      strictMention: false,
      eventsPath: '/slack/events',
      livenessTimeoutMs: 15_000,
      requestTimeoutMs: 30_000,
      ackDeadlineMs: 2_500,
      resolveUserNames: true,
      maxFileBytes: 20 * 1024 * 1024,
      unfurlLinks: false,
      sdkLogLevel: 'warn',
    });
  });

  it('defaults to HTTP events with only the signing secret', () => {
    expect(readSlackSettings({}, httpEnv)).toMatchObject({ mode: 'http', signingSecret: SIGNING_SECRET });
  });

  it('reads api_url first, then SLACK_API_URL, adding the trailing slash', () => {
    expect(
      readSlackSettings({ api_url: 'http://a:1/api' }, { ...socketEnv, SLACK_API_URL: 'http://b:2/api/' }).apiUrl,
    ).toBe('http://a:1/api/');
    expect(readSlackSettings({}, { ...socketEnv, SLACK_API_URL: 'http://b:2/api' }).apiUrl).toBe('http://b:2/api/');
  });

  it.each([
    [{ mode: 'webhook' }, socketEnv, /mode/],
    [{ mode: 'http' }, socketEnv, /SLACK_SIGNING_SECRET/],
    [{ mode: 'socket' }, httpEnv, /SLACK_APP_TOKEN/],
    [{ strict_mention: 'yes' }, socketEnv, /strict_mention/],
    [{ events_path: 'slack' }, httpEnv, /events_path/],
    [{ liveness_timeout_ms: 10 }, socketEnv, /liveness_timeout_ms/],
    [{ ack_deadline_ms: 5_000 }, httpEnv, /ack_deadline_ms/],
    [{ api_url: 'ftp://x' }, socketEnv, /api_url/],
    [{ sdk_log_level: 'loud' }, socketEnv, /sdk_log_level/],
  ])('refuses %o', (settings, env, message) => {
    expect(() => readSlackSettings(settings, env)).toThrow(message);
  });

  it('needs the bot token', () => {
    expect(() => readSlackSettings({}, { SLACK_APP_TOKEN: APP_TOKEN })).toThrow(/SLACK_BOT_TOKEN/);
  });
});

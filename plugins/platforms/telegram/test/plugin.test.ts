// The bundled plugin loads through the real loader (jiti) and registers a PlatformFactory.
import { fileURLToPath } from 'node:url';
import { HookBus, loadPlugins, PluginRegistries } from '@hermes/plugins';
import type { PlatformFactory } from '@hermes/protocol';
import { silentLogger } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { telegramFactory } from '../factory.js';
import { readTelegramSettings } from '../settings.js';
import { memoryState, TOKEN } from './harness.js';

const PLUGINS = fileURLToPath(new URL('../../..', import.meta.url));

function isFactory(value: unknown): value is PlatformFactory {
  return typeof value === 'object' && value !== null && 'create' in value && typeof value.create === 'function';
}

describe('telegram plugin', () => {
  it('loads without opt-in as a bundled platform plugin and registers { name, factory }', async () => {
    const registries = new PluginRegistries();
    const records = await loadPlugins({
      dirs: [{ dir: PLUGINS, source: 'bundled' }],
      enabled: [],
      disabled: [],
      env: { TELEGRAM_BOT_TOKEN: 'set' },
      tools: { register: () => () => {} },
      hooks: new HookBus(),
      logger: silentLogger,
      host: { registries },
    });
    const record = records.find((r) => r.key === 'platforms/telegram');
    expect(record?.error).toBeNull();
    expect(record?.state).toBe('enabled');
    expect(record?.manifest).toMatchObject({ name: 'telegram', kind: 'platform' });
    const registration = registries.platforms.get('telegram');
    expect(registration).toMatchObject({ name: 'telegram', plugin: 'platforms/telegram' });
    const factory = registration?.factory;
    expect(isFactory(factory)).toBe(true);
    if (!isFactory(factory)) return;
    expect(factory.name).toBe('telegram');
    expect(factory.hasCredentials({ TELEGRAM_BOT_TOKEN: TOKEN })).toBe(true);
    expect(factory.hasCredentials({})).toBe(false);
    expect(factory.hasCredentials({ TELEGRAM_BOT_TOKEN: ' ' })).toBe(false);
  });

  it('is not imported at all without TELEGRAM_BOT_TOKEN (its SDK stays unloaded)', async () => {
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
    const record = records.find((r) => r.key === 'platforms/telegram');
    expect(record?.state).toBe('env_missing');
    expect(record?.error).toBe('missing: TELEGRAM_BOT_TOKEN');
    expect(registries.platforms.has('telegram')).toBe(false);
  });

  it('creates an adapter without touching the network', () => {
    const adapter = telegramFactory.create({
      settings: {},
      env: { TELEGRAM_BOT_TOKEN: TOKEN },
      logger: silentLogger,
      cacheDir: '/nonexistent',
      commands: () => [],
      state: memoryState(),
      route: () => {},
    });
    expect(adapter.name).toBe('telegram');
    expect(adapter.status().state).toBe('disconnected');
  });
});

describe('telegram settings', () => {
  const env = { TELEGRAM_BOT_TOKEN: TOKEN };

  it('defaults to polling against the official API', () => {
    expect(readTelegramSettings({}, env)).toEqual({
      token: TOKEN,
      apiRoot: 'https://api.telegram.org',
      mode: 'polling',
      pollTimeoutS: 25,
      apiTimeoutS: 20,
      webhookPath: '/telegram/webhook',
      groupAllowedChats: null,
    });
  });

  it('reads group_allowed_chats as chat ids (numbers or strings); anything else is refused naming it', () => {
    expect(readTelegramSettings({ group_allowed_chats: [-100111, ' -100222 '] }, env).groupAllowedChats).toEqual(
      new Set(['-100111', '-100222']),
    );
    expect(() => readTelegramSettings({ group_allowed_chats: '-100111' }, env)).toThrow(
      'gateway.platforms.telegram.group_allowed_chats: must be a list of chat ids',
    );
    expect(() => readTelegramSettings({ group_allowed_chats: [-100111, 1.5] }, env)).toThrow(
      'group_allowed_chats[1]: 1.5 is not a chat id',
    );
  });

  it('lets TELEGRAM_API_ROOT override api_root, dropping a trailing slash', () => {
    expect(readTelegramSettings({ api_root: 'http://a:1/' }, env).apiRoot).toBe('http://a:1');
    expect(readTelegramSettings({ api_root: 'http://a:1' }, { ...env, TELEGRAM_API_ROOT: 'http://b:2/' }).apiRoot).toBe(
      'http://b:2',
    );
  });

  it('reads the webhook settings', () => {
    const settings = readTelegramSettings(
      { mode: 'webhook', webhook_url: 'https://h/x', webhook_secret: 's', webhook_path: '/x' },
      env,
    );
    expect(settings).toMatchObject({
      mode: 'webhook',
      webhookUrl: 'https://h/x',
      webhookSecret: 's',
      webhookPath: '/x',
    });
  });

  it.each([
    [{ mode: 'push' }, /mode/],
    [{ poll_timeout_s: '25' }, /poll_timeout_s/],
    [{ poll_timeout_s: 90 }, /poll_timeout_s/],
    [{ api_timeout_s: 0 }, /api_timeout_s/],
    [{ api_timeout_s: '20' }, /api_timeout_s/],
    [{ webhook_secret: 42 }, /webhook_secret/],
    [{ webhook_path: 'telegram' }, /webhook_path/],
  ])('refuses %o', (settings, message) => {
    expect(() => readTelegramSettings(settings, env)).toThrow(message);
  });

  it('needs the token', () => {
    expect(() => readTelegramSettings({}, {})).toThrow(/TELEGRAM_BOT_TOKEN/);
  });
});

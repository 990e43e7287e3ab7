// The bundled plugin loads through the real loader (jiti) and registers a PlatformFactory.
import { fileURLToPath } from 'node:url';
import { HookBus, loadPlugins, PluginRegistries } from '@hermes/plugins';
import type { PlatformFactory } from '@hermes/protocol';
import { silentLogger } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { discordFactory } from '../factory.js';
import { memoryState, recordingLogger, TOKEN } from './harness.js';

const PLUGINS = fileURLToPath(new URL('../../..', import.meta.url));

function isFactory(value: unknown): value is PlatformFactory {
  return typeof value === 'object' && value !== null && 'create' in value && typeof value.create === 'function';
}

function context(settings: Record<string, unknown>, logger = silentLogger) {
  return {
    settings,
    env: { DISCORD_BOT_TOKEN: TOKEN },
    logger,
    cacheDir: '/nonexistent',
    commands: () => [],
    state: memoryState(),
    route: () => {},
  };
}

describe('discord plugin', () => {
  it('loads without opt-in as a bundled platform plugin and registers { name, factory }', async () => {
    const registries = new PluginRegistries();
    const records = await loadPlugins({
      dirs: [{ dir: PLUGINS, source: 'bundled' }],
      enabled: [],
      disabled: [],
      env: { DISCORD_BOT_TOKEN: 'set' },
      tools: { register: () => () => {} },
      hooks: new HookBus(),
      logger: silentLogger,
      host: { registries },
    });
    const record = records.find((r) => r.key === 'platforms/discord');
    expect(record?.error).toBeNull();
    expect(record?.state).toBe('enabled');
    expect(record?.manifest).toMatchObject({ name: 'discord', kind: 'platform' });
    const factory = registries.platforms.get('discord')?.factory;
    expect(isFactory(factory)).toBe(true);
    if (!isFactory(factory)) return;
    expect(factory.name).toBe('discord');
    expect(factory.hasCredentials({ DISCORD_BOT_TOKEN: TOKEN })).toBe(true);
    expect(factory.hasCredentials({})).toBe(false);
    expect(factory.hasCredentials({ DISCORD_BOT_TOKEN: ' ' })).toBe(false);
  });

  it('is not imported at all without DISCORD_BOT_TOKEN (its SDK stays unloaded)', async () => {
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
    const record = records.find((r) => r.key === 'platforms/discord');
    expect(record?.state).toBe('env_missing');
    expect(record?.error).toBe('missing: DISCORD_BOT_TOKEN');
    expect(registries.platforms.has('discord')).toBe(false);
  });

  it('creates an adapter without touching the network, warning about unknown settings', () => {
    const { logger, lines } = recordingLogger();
    const adapter = discordFactory.create(context({ slash_comands: false }, logger));
    expect(adapter.name).toBe('discord');
    expect(adapter.status().state).toBe('disconnected');
    expect(lines).toEqual([
      {
        level: 'warn',
        obj: { unknown: ['slash_comands'] },
        msg: 'discord: unknown keys in gateway.platforms.discord are ignored',
      },
    ]);
  });

  it('refuses a setting of the wrong type at creation', () => {
    expect(() => discordFactory.create(context({ slash_commands: 'yes' }))).toThrow(/slash_commands/);
  });
});

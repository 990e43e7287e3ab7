// The `cron:` section: defaults, and a bad zone or policy refused with the file, line and key.
import { ConfigError, loadConfig } from '@hermes/config';
import { describe, expect, it } from 'vitest';
import { homeWithConfig, tempHome, thrown } from './helpers.js';

describe('config: cron', () => {
  it('defaults: the machine zone (unset), catch_up once, max_failures 3', () => {
    const { config } = loadConfig({ home: tempHome(), env: {} });
    expect(config.cron).toEqual({ catch_up: 'once', max_failures: 3 });
  });

  it('reads a zone, a policy and a failure limit', () => {
    const { home } = homeWithConfig('cron:\n  timezone: Europe/Berlin\n  catch_up: none\n  max_failures: 5\n');
    expect(loadConfig({ home, env: {} }).config.cron).toEqual({
      timezone: 'Europe/Berlin',
      catch_up: 'none',
      max_failures: 5,
    });
  });

  it('refuses an unknown zone and an unknown policy, naming the line and key', () => {
    for (const [yaml, key] of [
      ['cron:\n  timezone: Mars/Olympus\n', 'cron.timezone'],
      ['cron:\n  catch_up: twice\n', 'cron.catch_up'],
      ['cron:\n  max_failures: 0\n', 'cron.max_failures'],
    ] as const) {
      const { home, file } = homeWithConfig(yaml);
      const error = thrown(() => loadConfig({ home, env: {} }));
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain(`${file}:2`);
      expect((error as Error).message).toContain(key);
    }
  });
});

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configPaths, listProfiles, resolveHome } from '@hermes/config';
import { ERROR_CODES, HermesError } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { tempHome, thrown } from './helpers.js';

describe('resolveHome', () => {
  it('defaults to ~/.hermes, expanding ~ from HOME', () => {
    expect(resolveHome({ env: { HOME: '/home/ann' } })).toEqual({
      root: '/home/ann/.hermes',
      home: '/home/ann/.hermes',
      profile: null,
    });
  });

  it('uses HERMES_HOME, expanding a leading ~', () => {
    expect(resolveHome({ env: { HOME: '/home/ann', HERMES_HOME: '~/alt' } }).home).toBe('/home/ann/alt');
    expect(resolveHome({ env: { HERMES_HOME: '/srv/hermes' } }).root).toBe('/srv/hermes');
  });

  it('puts a profile under profiles/<name>, the argument winning over HERMES_PROFILE', () => {
    const env = { HERMES_HOME: '/srv/h', HERMES_PROFILE: 'work' };
    expect(resolveHome({ env })).toEqual({ root: '/srv/h', home: '/srv/h/profiles/work', profile: 'work' });
    expect(resolveHome({ env, profile: 'play' }).home).toBe('/srv/h/profiles/play');
  });

  it('treats "default" and an empty HERMES_PROFILE as the root home', () => {
    expect(resolveHome({ env: { HERMES_HOME: '/srv/h' }, profile: 'default' })).toEqual({
      root: '/srv/h',
      home: '/srv/h',
      profile: null,
    });
    expect(resolveHome({ env: { HERMES_HOME: '/srv/h', HERMES_PROFILE: '' } }).profile).toBeNull();
  });

  it('rejects a profile name with other characters (CONFIG_KEY)', () => {
    for (const bad of ['../etc', 'a b', 'x/y', '']) {
      const error = thrown(() => resolveHome({ env: { HERMES_HOME: '/srv/h' }, profile: bad }));
      expect(error).toBeInstanceOf(HermesError);
      expect((error as HermesError).code).toBe(ERROR_CODES.CONFIG_KEY);
      expect((error as HermesError).message).toContain(JSON.stringify(bad));
    }
    const fromEnv = thrown(() => resolveHome({ env: { HERMES_PROFILE: 'no!' } })) as HermesError;
    expect(fromEnv.message).toContain('HERMES_PROFILE');
  });
});

describe('listProfiles', () => {
  it('lists the default home, then profile directories by name', () => {
    const root = tempHome();
    for (const name of ['zeta', 'alpha', 'bad name']) mkdirSync(join(root, 'profiles', name), { recursive: true });
    writeFileSync(join(root, 'profiles', 'not-a-dir'), '');
    expect(listProfiles(root)).toEqual([
      { name: 'default', profile: null, home: root },
      { name: 'alpha', profile: 'alpha', home: join(root, 'profiles', 'alpha') },
      { name: 'zeta', profile: 'zeta', home: join(root, 'profiles', 'zeta') },
    ]);
  });

  it('returns only the default when there is no profiles directory', () => {
    const root = join(tempHome(), 'missing');
    expect(listProfiles(root)).toEqual([{ name: 'default', profile: null, home: root }]);
  });
});

describe('configPaths', () => {
  it('lays out the documented files under a home', () => {
    expect(configPaths('/h')).toEqual({
      config: '/h/config.yaml',
      env: '/h/.env',
      stateDb: '/h/state.db',
      logs: '/h/logs',
      pluginsDir: '/h/plugins',
      hooksDir: '/h/hooks',
    });
  });
});

// The kit's settings reader: typed optional settings, each wrong value named by its full key.
import { describe, expect, it } from 'vitest';
import { envCredential, settingsReader } from '../../src/index.js';

describe('settingsReader', () => {
  it('reads strings, booleans, bounded whole numbers and enumerations, with fallbacks for unset and null', () => {
    const read = settingsReader(
      { name: 'x', empty: '', off: false, none: null, limit: 7, mode: 'http', blank: '' },
      'echo',
    );
    expect([read.string('name'), read.string('empty'), read.string('missing'), read.string('none')]).toEqual([
      'x',
      undefined,
      undefined,
      undefined,
    ]);
    expect([read.boolean('off', true), read.boolean('missing', true), read.boolean('none', false)]).toEqual([
      false,
      true,
      false,
    ]);
    expect(read.integer('limit', 1, { min: 1, max: 10 })).toBe(7);
    expect(read.integer('missing', 3, { min: 0 })).toBe(3);
    expect(read.oneOf('mode', ['socket', 'http'], 'socket')).toBe('http');
    expect(read.oneOf('blank', ['socket', 'http'], 'socket')).toBe('socket');
    expect(read.keyName('mode')).toBe('gateway.platforms.echo.mode');
  });

  it.each([
    [
      { name: 42 },
      (r: ReturnType<typeof settingsReader>) => r.string('name'),
      'gateway.platforms.echo.name: expected a string',
    ],
    [
      { on: 'yes' },
      (r: ReturnType<typeof settingsReader>) => r.boolean('on', true),
      'gateway.platforms.echo.on: expected true or false',
    ],
    [
      { n: 0 },
      (r: ReturnType<typeof settingsReader>) => r.integer('n', 1, { min: 1 }),
      'gateway.platforms.echo.n: expected a whole number of at least 1',
    ],
    [
      { n: 1.5 },
      (r: ReturnType<typeof settingsReader>) => r.integer('n', 1, { min: 0, max: 50, unit: 'seconds' }),
      'gateway.platforms.echo.n: expected a whole number of seconds from 0 to 50',
    ],
    [
      { n: '25' },
      (r: ReturnType<typeof settingsReader>) => r.integer('n', 1, { min: 0, max: 50 }),
      'gateway.platforms.echo.n: expected a whole number from 0 to 50',
    ],
    [
      { mode: 'push' },
      (r: ReturnType<typeof settingsReader>) => r.oneOf('mode', ['polling', 'webhook'], 'polling'),
      'gateway.platforms.echo.mode: expected one of "polling", "webhook", got "push"',
    ],
  ])('refuses %o naming the key', (settings, read, message) => {
    expect(() => read(settingsReader(settings, 'echo'))).toThrow(new TypeError(message));
  });
});

describe('envCredential', () => {
  it('is present when the variable is set and not blank; the instance key is its trimmed value', () => {
    const credential = envCredential('ECHO_TOKEN');
    expect([credential.hasCredentials({ ECHO_TOKEN: ' t1 ' }), credential.instanceKey({ ECHO_TOKEN: ' t1 ' })]).toEqual(
      [true, 't1'],
    );
    expect([credential.hasCredentials({ ECHO_TOKEN: '  ' }), credential.instanceKey({ ECHO_TOKEN: '  ' })]).toEqual([
      false,
      undefined,
    ]);
    expect(credential.hasCredentials({})).toBe(false);
  });
});

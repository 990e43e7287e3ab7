import { describe, expect, it } from 'vitest';
import { isLoopbackHost } from '../src/loopback.js';

describe('isLoopbackHost', () => {
  it.each(['localhost', '127.0.0.1', '127.1.2.3', '::1', '[::1]', '0:0:0:0:0:0:0:1'])('%s is loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });

  it.each([
    '127.0.0.1.evil.example',
    'localhost.example',
    '0.0.0.0',
    '::',
    '10.0.0.1',
    '128.0.0.1',
    '127.1',
    '',
  ])('%s is not', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });
});

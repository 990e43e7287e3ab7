// The Host parsing of the request guard: loopback by name only (nothing is resolved), look-alike
// names refused, ports and brackets stripped.
import { describe, expect, it } from 'vitest';
import { hostName, isLoopbackName } from '../src/http/request-guard.js';

describe('request guard: Host names', () => {
  it.each([
    ['localhost', 'localhost'],
    ['LOCALHOST:8642', 'localhost'],
    ['127.0.0.1:1', '127.0.0.1'],
    ['[::1]:8642', '::1'],
    ['[::1]', '::1'],
    ['example.org.', 'example.org'],
  ])('%s is %s', (header, name) => {
    expect(hostName(header)).toBe(name);
  });

  it('counts localhost, 127.0.0.0/8 and ::1 as loopback, and nothing that only looks like them', () => {
    for (const name of ['localhost', '127.0.0.1', '127.1.2.3', '::1']) expect(isLoopbackName(name), name).toBe(true);
    for (const name of [
      'localhost.evil.example',
      '127.0.0.1.evil.example',
      'evil-127.0.0.1',
      '0.0.0.0',
      '',
      '::',
      '10.0.0.1',
    ]) {
      expect(isLoopbackName(hostName(name)), name).toBe(false);
    }
  });
});

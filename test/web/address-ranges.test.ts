// The SSRF address table: every row refuses its own addresses, IPv6 forms carrying IPv4 are judged by it, public passes.
import { BLOCKED_RANGES, blockedAddress, describeBlocked } from '@hermes/agent';
import { describe, expect, it } from 'vitest';

describe('blockedAddress', () => {
  it('refuses the base address of every row of the table', () => {
    for (const range of BLOCKED_RANGES) {
      const [base = ''] = range.cidr.split('/');
      expect(blockedAddress(base)?.kind, range.cidr).toBe(range.kind);
    }
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1%eth0', 'link-local'],
    ['fd12:3456::1', 'private'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['2002:7f00:1::', 'loopback'],
    ['2001:db8::1', 'reserved'],
  ])('%s is %s', (address, kind) => {
    expect(blockedAddress(address)?.kind).toBe(kind);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '2002:808:808::',
  ])('%s is public', (address) => {
    expect(blockedAddress(address)).toBeNull();
  });

  it('is null for things that are not IP addresses, and explains what it refuses', () => {
    expect(blockedAddress('localhost')).toBeNull();
    expect(blockedAddress('999.1.1.1')).toBeNull();
    const mapped = blockedAddress('::ffff:127.0.0.1');
    expect(mapped && describeBlocked(mapped)).toBe(
      '::ffff:127.0.0.1 (it carries 127.0.0.1) is a loopback address (loopback)',
    );
  });
});

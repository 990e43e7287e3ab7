/**
 * THE table of address ranges web tools refuse unless `security.allow_private_urls` is true, and
 * the classifier over it. IPv6 forms that carry an IPv4 address (mapped, compatible, NAT64, 6to4)
 * are judged by that IPv4 address, so `::ffff:127.0.0.1` is loopback.
 */
import { isIPv4, isIPv6 } from 'node:net';

export type AddressKind = 'loopback' | 'private' | 'link-local' | 'unspecified' | 'multicast' | 'reserved';

export interface AddressRange {
  cidr: string;
  kind: AddressKind;
  note: string;
}

/** Everything that is not on the public internet. Docs and tests read this table. */
export const BLOCKED_RANGES: readonly AddressRange[] = [
  { cidr: '0.0.0.0/8', kind: 'unspecified', note: '"this network" (0.0.0.0 reaches the local host)' },
  { cidr: '10.0.0.0/8', kind: 'private', note: 'RFC 1918 private network' },
  { cidr: '100.64.0.0/10', kind: 'private', note: 'carrier-grade NAT shared space' },
  { cidr: '127.0.0.0/8', kind: 'loopback', note: 'loopback' },
  { cidr: '169.254.0.0/16', kind: 'link-local', note: 'link-local, cloud metadata (169.254.169.254)' },
  { cidr: '172.16.0.0/12', kind: 'private', note: 'RFC 1918 private network' },
  { cidr: '192.0.0.0/24', kind: 'reserved', note: 'IETF protocol assignments' },
  { cidr: '192.0.2.0/24', kind: 'reserved', note: 'documentation (TEST-NET-1)' },
  { cidr: '192.88.99.0/24', kind: 'reserved', note: '6to4 relay anycast' },
  { cidr: '192.168.0.0/16', kind: 'private', note: 'RFC 1918 private network' },
  { cidr: '198.18.0.0/15', kind: 'reserved', note: 'benchmarking' },
  { cidr: '198.51.100.0/24', kind: 'reserved', note: 'documentation (TEST-NET-2)' },
  { cidr: '203.0.113.0/24', kind: 'reserved', note: 'documentation (TEST-NET-3)' },
  { cidr: '224.0.0.0/4', kind: 'multicast', note: 'multicast' },
  { cidr: '240.0.0.0/4', kind: 'reserved', note: 'reserved, broadcast' },
  { cidr: '::/128', kind: 'unspecified', note: 'unspecified' },
  { cidr: '::1/128', kind: 'loopback', note: 'loopback' },
  { cidr: '64:ff9b:1::/48', kind: 'private', note: 'local-use NAT64' },
  { cidr: '100::/64', kind: 'reserved', note: 'discard-only' },
  { cidr: '2001::/32', kind: 'reserved', note: 'Teredo tunnelling' },
  { cidr: '2001:db8::/32', kind: 'reserved', note: 'documentation' },
  { cidr: 'fc00::/7', kind: 'private', note: 'unique local addresses' },
  { cidr: 'fe80::/10', kind: 'link-local', note: 'link-local' },
  { cidr: 'fec0::/10', kind: 'private', note: 'site-local (deprecated)' },
  { cidr: 'ff00::/8', kind: 'multicast', note: 'multicast' },
];

/** IPv6 prefixes whose last (or, for 6to4, second and third) 32 bits are an IPv4 address. */
const EMBEDDED_V4: readonly { cidr: string; offset: number }[] = [
  { cidr: '::ffff:0:0/96', offset: 12 }, // IPv4-mapped
  { cidr: '::/96', offset: 12 }, // IPv4-compatible (deprecated)
  { cidr: '64:ff9b::/96', offset: 12 }, // NAT64 well-known prefix
  { cidr: '2002::/16', offset: 2 }, // 6to4
];

/** Bytes of an IPv4 address, or null. */
function v4Bytes(address: string): number[] | null {
  if (!isIPv4(address)) return null;
  return address.split('.').map(Number);
}

/** Bytes of an IPv6 address (zone id ignored, embedded dotted IPv4 accepted), or null. */
function v6Bytes(input: string): number[] | null {
  const address = input.replace(/%.*$/, '');
  if (!isIPv6(address)) return null;
  let text = address;
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    tail.push(...(v4Bytes(dotted[1]) ?? []));
    text = `${text.slice(0, -dotted[1].length)}0:0`;
  }
  const [head = '', rest] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((h) => Number.parseInt(h, 16)));
  const left = parse(head);
  const right = rest === undefined ? [] : parse(rest);
  const groups = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  const bytes = groups.flatMap((g) => [g >> 8, g & 0xff]);
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

interface ParsedCidr {
  bytes: number[];
  bits: number;
}

function parseCidr(cidr: string): ParsedCidr {
  const [base = '', bits = ''] = cidr.split('/');
  const bytes = v4Bytes(base) ?? v6Bytes(base);
  if (!bytes) throw new Error(`bad range ${cidr}`);
  return { bytes, bits: Number(bits) };
}

function inRange(bytes: number[], range: ParsedCidr): boolean {
  if (bytes.length !== range.bytes.length) return false;
  for (let bit = 0; bit < range.bits; bit += 8) {
    const take = Math.min(8, range.bits - bit);
    const mask = (0xff << (8 - take)) & 0xff;
    const i = bit / 8;
    if (((bytes[i] ?? 0) & mask) !== ((range.bytes[i] ?? 0) & mask)) return false;
  }
  return true;
}

const PARSED_BLOCKED = BLOCKED_RANGES.map((r) => ({ ...r, parsed: parseCidr(r.cidr) }));
const PARSED_EMBEDDED = EMBEDDED_V4.map((e) => ({ ...e, parsed: parseCidr(e.cidr) }));

export interface BlockedAddress {
  address: string;
  kind: AddressKind;
  note: string;
  /** the IPv4 address an IPv6 form carried, when that is what was judged */
  via?: string;
}

/** Why `address` (an IP literal) must not be fetched, or null for a public address. Non-IPs are null. */
export function blockedAddress(address: string): BlockedAddress | null {
  const bytes = v4Bytes(address) ?? v6Bytes(address);
  if (!bytes) return null;
  for (const range of PARSED_BLOCKED) {
    // ::/96 (compatible) would swallow :: and ::1; they are matched here first by their own rows
    if (inRange(bytes, range.parsed)) return { address, kind: range.kind, note: range.note };
  }
  if (bytes.length === 16) {
    for (const embedded of PARSED_EMBEDDED) {
      if (!inRange(bytes, embedded.parsed)) continue;
      const v4 = bytes.slice(embedded.offset, embedded.offset + 4).join('.');
      const inner = blockedAddress(v4);
      if (inner) return { ...inner, address, via: v4 };
    }
  }
  return null;
}

/** A one-line reason: `127.0.0.1 is a loopback address (loopback)`. */
export function describeBlocked(blocked: BlockedAddress): string {
  const via = blocked.via ? ` (it carries ${blocked.via})` : '';
  return `${blocked.address}${via} is a ${blocked.kind} address (${blocked.note})`;
}

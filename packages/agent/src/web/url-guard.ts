/**
 * The SSRF gate for URLs that came from the model: http(s) only, and unless private URLs are
 * allowed, every address the host name resolves to must be public. The fetcher asks again at
 * connect time for the address it actually dials (so DNS rebinding cannot slip past) and after
 * every redirect.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { ERROR_CODES, HermesError } from '@hermes/protocol';
import { blockedAddress, describeBlocked } from './address-ranges.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Host name -> its addresses. The default asks the OS resolver (hosts file included). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The OS resolver: every address of `hostname`, in the resolver's order. */
export const systemResolver: Resolver = async (hostname) => {
  const all = await lookup(hostname, { all: true, verbatim: true });
  return all.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

export interface UrlPolicy {
  allowPrivate: boolean;
  resolve: Resolver;
}

const refused = (message: string) => new HermesError(ERROR_CODES.WEB_URL_REFUSED, message);

/** Parses a model-given URL; only http and https pass. */
export function parseWebUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw refused(`not a valid absolute URL: ${JSON.stringify(raw.slice(0, 200))}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw refused(`only http and https URLs can be fetched, not ${url.protocol.replace(/:$/, '')}: ${url.href}`);
  }
  return url;
}

/** The host name of a URL without IPv6 brackets. */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

const ALLOW_HINT = 'set security.allow_private_urls: true in config.yaml to allow it';

/**
 * Resolves `hostname` and checks every address; resolves with the addresses (the first is the
 * one to dial) or rejects with HERMES_WEB_URL_REFUSED naming the address, or HERMES_WEB_FETCH
 * when the name does not resolve.
 */
export async function vetHost(hostname: string, policy: UrlPolicy): Promise<ResolvedAddress[]> {
  const literal = isIP(hostname);
  let addresses: ResolvedAddress[];
  if (literal) addresses = [{ address: hostname, family: literal === 6 ? 6 : 4 }];
  else {
    try {
      addresses = await policy.resolve(hostname);
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      throw new HermesError(
        ERROR_CODES.WEB_FETCH,
        `cannot resolve ${hostname}: ${typeof code === 'string' ? code : String(err)}`,
        { cause: err, retryable: code === 'EAI_AGAIN' },
      );
    }
    if (addresses.length === 0) throw new HermesError(ERROR_CODES.WEB_FETCH, `cannot resolve ${hostname}: no address`);
  }
  if (policy.allowPrivate) return addresses;
  for (const a of addresses) {
    const blocked = blockedAddress(a.address);
    if (blocked) {
      const via = literal ? '' : `${hostname} resolves to `;
      throw refused(`refused: ${via}${describeBlocked(blocked)}; ${ALLOW_HINT}`);
    }
  }
  return addresses;
}

/** Parses and vets a model-given URL (scheme, then every resolved address). */
export async function vetUrl(raw: string, policy: UrlPolicy): Promise<URL> {
  const url = parseWebUrl(raw);
  await vetHost(bareHost(url), policy);
  return url;
}

/**
 * The host's guarded page fetch (`FetchWebPage`), lent to web providers for URLs that came from
 * the model. Each call: http(s) only; the host vetted before connecting, the address dialled
 * vetted again inside the connector (pinned: the vetted address is the one connected to), every
 * redirect followed by hand and vetted the same way; the whole call bounded by a timeout and the
 * body by a byte limit (decompressed bytes, so a zip bomb stops there too).
 */
import { pipeline, type Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { ERROR_CODES, type FetchedWebPage, type FetchWebPage, HermesError } from '@hermes/protocol';
import type { buildConnector } from 'undici';
import { decodeBody, isTextual, mediaType } from './decode-body.js';
import { bareHost, parseWebUrl, type Resolver, systemResolver, type UrlPolicy, vetHost } from './url-guard.js';

/** Redirects followed per fetch. */
export const MAX_REDIRECTS = 5;
/** Time to open a TCP/TLS connection. */
const CONNECT_TIMEOUT_MS = 10_000;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export const WEB_USER_AGENT = 'Mozilla/5.0 (compatible; HermesAgent/0.1; +https://github.com/hermes-gateway)';
const DEFAULT_ACCEPT = 'text/html,application/xhtml+xml,text/plain;q=0.9,text/*;q=0.8,*/*;q=0.5';

export interface SafeFetchOptions {
  /** `security.allow_private_urls` */
  allowPrivate: boolean;
  /** the whole fetch, redirects and body included (`web.timeout_s`) */
  timeoutMs: number;
  /** body bytes kept; the rest is cut (`web.max_page_bytes`) */
  maxBytes: number;
  maxRedirects?: number;
  /** host name -> addresses; default the OS resolver */
  resolve?: Resolver;
  /**
   * Where a vetted address is dialled; default: that address. Tests use it as a fake network,
   * mapping a pretend-public address onto the 127.0.0.1 fake that serves it.
   */
  dial?: (address: string) => string;
  userAgent?: string;
}

const fetchError = (message: string, cause?: unknown, retryable = false) =>
  new HermesError(ERROR_CODES.WEB_FETCH, message, { cause, retryable });

function errorCode(err: unknown): string | null {
  let e: unknown = err;
  for (let i = 0; i < 4 && e instanceof Error; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && !code.startsWith('UND_ERR_ABORTED')) return code;
    e = e.cause;
  }
  return null;
}

function hermesCause(err: unknown): HermesError | null {
  let e: unknown = err;
  for (let i = 0; i < 4 && e instanceof Error; i++) {
    if (e instanceof HermesError) return e;
    e = e.cause;
  }
  return null;
}

function decompressor(encoding: string): NodeJS.ReadWriteStream | null {
  switch (encoding) {
    case '':
    case 'identity':
      return null;
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      throw fetchError(`unsupported content-encoding "${encoding}"`);
  }
}

/** Reads at most `maxBytes` decoded bytes of a body; the rest is dropped and `truncated` set. */
export async function readBounded(
  body: Readable,
  encoding: string,
  maxBytes: number,
): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  const decoder = decompressor(encoding);
  // pipeline (not pipe): an error of the socket reaches the decoder, so the loop below cannot hang
  const stream: AsyncIterable<Buffer> = decoder
    ? (pipeline(body, decoder, () => undefined) as unknown as AsyncIterable<Buffer>)
    : body;
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    for await (const chunk of stream) {
      const room = maxBytes - size;
      if (chunk.length >= room) {
        chunks.push(chunk.subarray(0, room));
        size += room;
        truncated = chunk.length > room;
        break;
      }
      chunks.push(chunk);
      size += chunk.length;
    }
  } finally {
    body.destroy();
    (decoder as { destroy?: () => void } | null)?.destroy?.();
  }
  return { bytes: Buffer.concat(chunks, size), truncated };
}

/** Reads and drops a body the caller does not want (undici's `dump`; destroying it would emit an abort error). */
export async function discardBody(body: Readable): Promise<void> {
  const dump = (body as Readable & { dump?: () => Promise<void> }).dump;
  if (typeof dump === 'function') await dump.call(body);
  else body.resume();
}

/** A response of the guarded GET, after redirects, for the caller to read. */
export interface GuardedResponse {
  url: URL;
  status: number;
  header(name: string): string;
  body: Readable;
  redirects: string[];
}

/** GETs a URL with the SSRF policy (every hop and every dialled address vetted) and the timeout. */
export type GuardedGet = <T>(
  raw: string,
  init: { signal?: AbortSignal; accept?: string },
  read: (res: GuardedResponse) => Promise<T>,
) => Promise<T>;

/** Builds the guarded GET the page fetch and the file download share. */
export function createGuardedGet(options: Omit<SafeFetchOptions, 'maxBytes'>): GuardedGet {
  const policy: UrlPolicy = { allowPrivate: options.allowPrivate, resolve: options.resolve ?? systemResolver };
  const maxRedirects = options.maxRedirects ?? MAX_REDIRECTS;
  // undici is loaded on the first fetch, not at the gateway's start-up
  let connector: Promise<{ undici: typeof import('undici'); connect: buildConnector.connector }> | null = null;
  const load = () => {
    connector ??= import('undici').then((undici) => {
      const baseConnect = undici.buildConnector({ timeout: CONNECT_TIMEOUT_MS });
      // every new connection re-resolves and re-vets its host, then dials exactly the vetted address
      const connect: buildConnector.connector = (opts, callback) => {
        vetHost(opts.hostname, policy).then(
          (addresses) => {
            const address = addresses[0]?.address ?? opts.hostname;
            baseConnect({ ...opts, hostname: options.dial ? options.dial(address) : address }, callback);
          },
          (err: Error) => callback(err, null),
        );
      };
      return { undici, connect };
    });
    return connector;
  };

  return async (raw, init, read) => {
    const { undici, connect } = await load();
    const { Agent, request } = undici;
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    const agent = new Agent({ connect, keepAliveTimeout: 1_000, connections: 4 });
    const redirects: string[] = [];
    let url = parseWebUrl(raw);
    try {
      for (let hop = 0; ; hop++) {
        // vetted here for a clear message; the connector vets again what it actually dials
        await vetHost(bareHost(url), policy);
        const res = await request(url, {
          method: 'GET',
          headers: {
            'user-agent': options.userAgent ?? WEB_USER_AGENT,
            accept: init.accept ?? DEFAULT_ACCEPT,
            'accept-encoding': 'gzip, deflate, br',
            'accept-language': 'en-US,en;q=0.9,*;q=0.5',
          },
          dispatcher: agent,
          signal,
        });
        const header = (name: string): string => {
          const v = res.headers[name];
          return Array.isArray(v) ? (v[0] ?? '') : (v ?? '');
        };
        const location = header('location');
        if (REDIRECT_STATUSES.has(res.statusCode) && location) {
          await res.body.dump();
          if (hop >= maxRedirects) throw fetchError(`too many redirects (more than ${maxRedirects}) from ${raw}`);
          redirects.push(url.href);
          url = parseWebUrl(new URL(location, url).href);
          continue;
        }
        return await read({ url, status: res.statusCode, header, body: res.body, redirects });
      }
    } catch (err) {
      const hermes = hermesCause(err);
      if (hermes) throw hermes;
      if (timeout.aborted) {
        throw fetchError(`${url.href} did not answer within ${options.timeoutMs / 1000} s`, err, true);
      }
      if (init.signal?.aborted) throw fetchError(`fetching ${url.href} was interrupted`, err);
      throw fetchError(`cannot fetch ${url.href}: ${errorCode(err) ?? String(err)}`, err, true);
    } finally {
      agent.destroy().catch(() => undefined);
    }
  };
}

/** Builds the guarded fetch with the given policy and limits. */
export function createSafeFetch(options: SafeFetchOptions): FetchWebPage {
  const get = createGuardedGet(options);
  return (raw, init = {}): Promise<FetchedWebPage> =>
    get(raw, init, async (res) => {
      const contentType = res.header('content-type');
      const type = mediaType(contentType);
      if (!isTextual(type)) {
        await discardBody(res.body);
        return {
          url: res.url.href,
          status: res.status,
          contentType: type,
          text: '',
          truncated: false,
          redirects: res.redirects,
        };
      }
      const { bytes, truncated } = await readBounded(
        res.body,
        res.header('content-encoding').trim().toLowerCase(),
        options.maxBytes,
      );
      return {
        url: res.url.href,
        status: res.status,
        contentType: type,
        text: decodeBody(bytes, contentType || undefined),
        truncated,
        redirects: res.redirects,
      };
    });
}

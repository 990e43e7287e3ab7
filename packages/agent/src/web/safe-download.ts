/**
 * The guarded file download: an https URL the model named (a `MEDIA:` line), fetched with the same
 * SSRF policy as the web tools (every hop and every dialled address vetted) and a byte cap; a body
 * past the cap is refused, never cut.
 */
import { ERROR_CODES, HermesError } from '@hermes/protocol';
import { mediaType } from './decode-body.js';
import { createGuardedGet, discardBody, readBounded, type SafeFetchOptions } from './safe-fetch.js';

export interface DownloadedFile {
  /** the URL that answered, after redirects */
  url: string;
  /** the media type without parameters, lower case */
  contentType: string;
  bytes: Uint8Array;
}

export type SafeDownload = (url: string, options?: { signal?: AbortSignal }) => Promise<DownloadedFile>;

const downloadError = (message: string) => new HermesError(ERROR_CODES.WEB_FETCH, message);

/** Builds the download; `maxBytes` is the largest file taken. */
export function createSafeDownload(options: SafeFetchOptions): SafeDownload {
  const get = createGuardedGet(options);
  return (url, init = {}) =>
    get(url, { ...(init.signal ? { signal: init.signal } : {}), accept: '*/*' }, async (res) => {
      if (res.status !== 200) {
        await discardBody(res.body);
        throw downloadError(`${res.url.href} answered HTTP ${res.status}`);
      }
      const declared = Number(res.header('content-length'));
      if (Number.isFinite(declared) && declared > options.maxBytes) {
        await discardBody(res.body);
        throw downloadError(`${res.url.href} is ${declared} bytes, over the limit of ${options.maxBytes}`);
      }
      const { bytes, truncated } = await readBounded(
        res.body,
        res.header('content-encoding').trim().toLowerCase(),
        options.maxBytes,
      );
      if (truncated) throw downloadError(`${res.url.href} is over the limit of ${options.maxBytes} bytes`);
      return { url: res.url.href, contentType: mediaType(res.header('content-type')), bytes };
    });
}

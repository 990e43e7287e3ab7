/**
 * Fetching one file of a message into the attachment cache, as the Cloud API hands it out: GET
 * /{media-id} answers a short-lived `url` (with the file's MIME type and size), then a GET of that
 * url with the same bearer token brings the bytes. Cached as `<cacheDir>/<media-id>-<name>`.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isCached, safeFileName, storeCached } from '@hermes/plugin-sdk';
import type { GraphClient } from './graph-api.js';
import type { PendingMedia } from './normalize.js';

export interface DownloadTarget {
  graph: GraphClient;
  cacheDir: string;
  /** media.max_bytes: a file the API reports as larger is not fetched */
  maxBytes?: number | undefined;
  signal: AbortSignal;
}

/** Downloads `file` unless the cache holds it; resolves with its local path. */
export async function downloadMedia(file: PendingMedia, target: DownloadTarget): Promise<string> {
  const dest = join(target.cacheDir, `${safeFileName(file.mediaId)}-${file.fileName}`);
  if (await isCached(dest)) return dest;
  const info = await target.graph.json('GET', encodeURIComponent(file.mediaId), undefined, target.signal);
  const url = typeof info.url === 'string' ? info.url : undefined;
  if (url === undefined || !/^https?:\/\//.test(url))
    throw new Error(`whatsapp: media ${file.mediaId} has no download url`);
  const size = Number(info.file_size);
  if (Number.isFinite(size) && size > 0) {
    file.attachment.size = size;
    if (target.maxBytes !== undefined && size > target.maxBytes) {
      throw new Error(`whatsapp: media ${file.mediaId} is ${size} bytes, over media.max_bytes`);
    }
  }
  const data = await target.graph.bytes(url, target.signal, target.maxBytes);
  return storeCached(dest, (partial) => writeFile(partial, data));
}

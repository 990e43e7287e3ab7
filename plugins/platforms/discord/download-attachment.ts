/** Fetches one attachment from its CDN URL into the cache, as `<cacheDir>/<attachment id>-<name>`, under a size cap. */
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isCached, storeCached } from '@hermes/plugin-sdk';
import type { PendingAttachment } from './attachments.js';

export const DOWNLOAD_TIMEOUT_MS = 60_000;

export interface DownloadTarget {
  cacheDir: string;
  maxBytes: number;
  signal: AbortSignal;
  timeoutMs?: number;
}

function capped(maxBytes: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > maxBytes) done(new Error(`discord: attachment is larger than ${maxBytes} bytes`));
      else done(null, chunk);
    },
  });
}

/** Downloads `file` unless the cache already holds it; resolves with its local path, rejects when too large or failed. */
export async function downloadAttachment(file: PendingAttachment, target: DownloadTarget): Promise<string> {
  if (file.size !== undefined && file.size > target.maxBytes) {
    throw new Error(`discord: attachment of ${file.size} bytes is over the ${target.maxBytes}-byte cap`);
  }
  const url = new URL(file.url);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('discord: attachment URL is not http(s)');
  const dest = join(target.cacheDir, `${file.id}-${file.fileName}`);
  if (await isCached(dest)) return dest;
  const signal = AbortSignal.any([target.signal, AbortSignal.timeout(target.timeoutMs ?? DOWNLOAD_TIMEOUT_MS)]);
  const response = await fetch(url, { signal });
  if (!response.ok || response.body === null) {
    await response.body?.cancel();
    throw new Error(`discord: attachment download failed with HTTP ${response.status}`);
  }
  const body = Readable.fromWeb(response.body, { signal });
  return storeCached(dest, (partial) => pipeline(body, capped(target.maxBytes), createWriteStream(partial)));
}
